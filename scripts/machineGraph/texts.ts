/**
 * The zh and en texts of the machines' states and transitions. A state's or transition's `description`
 * in machines/ is a short key; the prose is in locales/<lng>/atlas.json, which only docs/machines and the atlas read,
 * so it never reaches the member's bundle. A transition without a description is keyed by what it is,
 * `<machine>.<source path>:<event>[<guard>]`, so its key changes when the transition does and the atlas check
 * (scripts/atlas.ts --check) notices a text that no longer has a transition.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DefinedTransition } from './modelPaths';

export const atlasLanguages = ['zh', 'en'] as const;
export type AtlasLanguage = (typeof atlasLanguages)[number];

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../locales');

/**
 * Reads locales/<lng>/atlas.json (a flat map from key to text).
 *
 * @param lng - zh or en
 * @param dir - the locales folder (tests pass their own)
 * @returns key → text
 * @example
 * atlasTexts('en')['wallet.idle']; // "No wallet connection. ..."
 */
export function atlasTexts(lng: AtlasLanguage, dir = localesDir): Record<string, string> {
  return JSON.parse(readFileSync(path.join(dir, lng, 'atlas.json'), 'utf8')) as Record<string, string>;
}

/** A short, readable event label: "done findProviders", "after walletTimeout", "always". */
export function eventLabel(event: string): string {
  return event
    .replace(/^xstate\.done\.actor\.(.+)$/, 'done $1')
    .replace(/^xstate\.error\.actor\.(.+)$/, 'error $1')
    .replace(/^xstate\.after\.([^.]+)\..*$/, 'after $1');
}

/**
 * The text key of a transition: its description, else what it is.
 *
 * @param machineName - the machine's entry name (wallet, auth, ...)
 * @param row - the transition as definedTransitions lists it
 * @returns e.g. "wallet.idle:user.connect" or "wallet.switchingChain:error.switchChain[canAddChain]"
 * @example
 * transitionTextKey('copy', row); // "copy.copying:done.writeClipboard"
 */
export function transitionTextKey(machineName: string, row: Pick<DefinedTransition, 'description' | 'source' | 'event' | 'guard'>): string {
  if (row.description) return row.description;
  const source = [machineName, row.source.split('.').slice(1).join('.')].filter(Boolean).join('.');
  return `${source}:${eventLabel(row.event).replace(/ /g, '.')}${row.guard ? `[${row.guard}]` : ''}`;
}
