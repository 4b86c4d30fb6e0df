import i18next from 'i18next';
import type { i18n as I18n, InitOptions, Resource, ResourceLanguage } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import type { DetectorOptions } from 'i18next-browser-languagedetector';
import type { HttpBackendOptions } from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '../storage/keys';
import { LazyHttpBackend } from './lazyHttpBackend';

/**
 * The i18next set-up (spec sections 1 and 9, docs/architecture.md, "Browser details"): zh first and fallback, en second;
 * language detected from ?lng, cookie, localStorage, sessionStorage, the browser, then <html lang>, and cached
 * in localStorage; translations fetched from /locales/{lng}/{ns}.json, one namespace per screen.
 */

export const supportedLanguages = ['zh', 'en'] as const;
export type SupportedLanguage = (typeof supportedLanguages)[number];
export const fallbackLanguage: SupportedLanguage = 'zh';

/** 'common' holds Common.{code}, wallet.errors, wallet.prompts, nav and layout; the others are screens. */
/** Loaded at start: the sign-in screens and the member's first pages. */
export const startNamespaces = ['common', 'login', 'register', 'home', 'me', 'invitation'] as const;
/** Every namespace; the others load with the first screen that asks for them (useTranslation suspends till then). */
export const namespaces = [...startNamespaces, 'team', 'announcement', 'about', 'solbot', 'credit', 'wpos', 'buy'] as const;
export type Namespace = (typeof namespaces)[number];

export const detectionOptions: DetectorOptions = {
  order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
  lookupQuerystring: 'lng',
  lookupLocalStorage: STORAGE_KEYS.language,
  caches: ['localStorage'],
};

export const backendOptions: HttpBackendOptions = {
  loadPath: '/locales/{{lng}}/{{ns}}.json',
};

export interface CreateI18nParameters {
  /** Bundled translations (tests, storybook-like set-ups): no HTTP backend is used when given. */
  resources?: Resource | undefined;
  /** A fixed language: no detection when given. */
  lng?: string | undefined;
  /**
   * The namespaces loaded at start besides 'common': the first page's own (routeNamespaces), so a first visit
   * fetches only what it shows. Default: every start namespace.
   */
  ns?: readonly Namespace[] | undefined;
  /**
   * Texts the document already carries (src/i18n/firstTexts.ts): i18next starts with them and fetches only what
   * they lack, in whatever language it detects.
   */
  firstTexts?: { lng: string; resources: ResourceLanguage } | undefined;
}

/**
 * zh is the fallback of every language but en. en is complete (tests/i18n/locales.test.ts checks that zh and en
 * have the same keys), so an en reader needs no zh texts and does not download them.
 */
export const fallbackLanguages = { en: [], default: [fallbackLanguage] };

/**
 * The init options for the given parameters.
 *
 * @param parameters - Bundled resources and a fixed language, both optional.
 * @returns The i18next init options.
 * @example
 * i18nOptions().fallbackLng // { en: [], default: ['zh'] }
 */
export function i18nOptions({ resources, lng, ns, firstTexts }: CreateI18nParameters = {}): InitOptions<HttpBackendOptions> {
  return {
    ...(resources ? { resources } : { backend: backendOptions }),
    // Bundles already in the store are not fetched again; partialBundledLanguages keeps the backend for the rest.
    ...(!resources && firstTexts ? { resources: { [firstTexts.lng]: firstTexts.resources }, partialBundledLanguages: true } : {}),
    ...(lng ? { lng } : { detection: detectionOptions }),
    fallbackLng: fallbackLanguages,
    supportedLngs: supportedLanguages,
    // 'en-US' is accepted as 'en'; an unsupported language ('fr') falls back to zh.
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    ns: ns ? ['common', ...ns.filter((name) => name !== 'common')] : [...startNamespaces],
    defaultNS: 'common',
    fallbackNS: 'common',
    interpolation: { escapeValue: false },
  };
}

/**
 * Creates an i18next instance with the detector, the HTTP backend and react-i18next, not yet initialised.
 *
 * @param parameters - Bundled resources (no HTTP backend) and a fixed language (no detection), both optional.
 * @returns The instance; call `init()` (or use initI18n).
 * @example
 * const i18n = createI18n(); await i18n.init();
 */
export function createI18n(parameters: CreateI18nParameters = {}): I18n {
  const instance = i18next.createInstance(i18nOptions(parameters));
  // The HTTP backend's code loads with the first text file fetched (lazyHttpBackend.ts).
  if (!parameters.resources) instance.use(LazyHttpBackend);
  if (!parameters.lng) instance.use(LanguageDetector);
  return instance.use(initReactI18next);
}

/**
 * Creates and initialises the i18next instance; resolves once the detected language's default namespace loaded
 * (or failed to load: missing texts show their keys, the app still starts).
 *
 * @param parameters - As for createI18n.
 * @returns The initialised instance, ready for I18nextProvider.
 * @example
 * const i18n = await initI18n();
 * i18n.t('Common.1002') // '请先登录'
 */
export async function initI18n(parameters: CreateI18nParameters = {}): Promise<I18n> {
  const instance = createI18n(parameters);
  await instance.init();
  return instance;
}
