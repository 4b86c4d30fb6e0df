/**
 * The first page's texts the server sends inside the document (server/plugins/loginShell.ts: a JSON data block),
 * so translations start without fetching them. Checked by hand rather than with the contract's zod schemas: those
 * load after the first render (ADR 0005), and the shape is two levels of plain objects.
 */
import type { ResourceLanguage } from 'i18next';
import { supportedLanguages } from './i18n';
import type { SupportedLanguage } from './i18n';

/** The id the server gives the data block (FIRST_TEXTS_ID in server/plugins/loginShell.ts). */
export const FIRST_TEXTS_ELEMENT_ID = 'first-texts';

export interface FirstTexts {
  lng: SupportedLanguage;
  /** Namespace → its texts, as in locales/{lng}/{ns}.json. */
  resources: ResourceLanguage;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The texts in the document, or undefined when there are none or they are not in the expected shape (then the app
 * fetches its texts as usual).
 *
 * @param document - the page's document
 * @example
 * const i18n = createI18n({ firstTexts: readFirstTexts(document) });
 */
export function readFirstTexts(document: Document): FirstTexts | undefined {
  const text = document.getElementById(FIRST_TEXTS_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed) || !isPlainObject(parsed.resources)) return undefined;
  const { lng, resources } = parsed;
  const language = supportedLanguages.find((supported) => supported === lng);
  if (!language || !Object.values(resources).every(isPlainObject)) return undefined;
  return { lng: language, resources: resources as ResourceLanguage };
}
