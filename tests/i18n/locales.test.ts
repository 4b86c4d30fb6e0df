import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allApiCodes } from '../../api-schema/codes';
import { authErrorNames, walletErrorNames } from '../../machines/shared/errorNames';
import { transactionErrorNames } from '../../machines/credit/transactionErrors';
import { namespaces, supportedLanguages } from '../../src/i18n/i18n';
import { localeKeys } from '../support/localeKeys';

const localesDir = `${resolve(dirname(fileURLToPath(import.meta.url)), '../../locales')}/`;

function load(lng: string, ns: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${localesDir}${lng}/${ns}.json`, 'utf8')) as Record<string, unknown>;
}

/** Every leaf key path, dot-joined. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
}

function textAt(tree: Record<string, unknown>, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), tree);
}

describe('locales', () => {
  it.each(namespaces)('behavior: zh and en have the same keys in %s, plural texts with the forms each language needs', (ns) => {
    const [zh, ...others] = supportedLanguages.map((lng) => localeKeys(lng, keyPaths(load(lng, ns))));
    for (const keys of others) expect(keys?.keys).toEqual(zh?.keys);
    expect([zh, ...others].flatMap((keys) => keys?.problems ?? [])).toEqual([]);
  });

  it.each(namespaces)('behavior: every text in %s is a non-empty string', (ns) => {
    for (const lng of supportedLanguages) {
      const tree = load(lng, ns);
      for (const path of keyPaths(tree)) {
        const text = textAt(tree, path.split('.'));
        expect(typeof text === 'string' && text.trim() !== '', `${lng}/${ns}: ${path}`).toBe(true);
      }
    }
  });

  it.each(supportedLanguages)('behavior: %s has Common.{code} for every API code and Common.unknown', (lng) => {
    const common = load(lng, 'common');
    for (const code of [...allApiCodes.map(String), 'unknown']) {
      expect(typeof textAt(common, ['Common', code]), `${lng} Common.${code}`).toBe('string');
    }
  });

  it.each(supportedLanguages)('behavior: %s has wallet.errors.{name} for every wallet error', (lng) => {
    const common = load(lng, 'common');
    for (const name of walletErrorNames) {
      expect(typeof textAt(common, ['wallet', 'errors', name]), `${lng} wallet.errors.${name}`).toBe('string');
    }
  });

  it.each(supportedLanguages)('behavior: %s has credit:topUp.errors.{name} for every transaction error', (lng) => {
    const credit = load(lng, 'credit');
    for (const name of transactionErrorNames) {
      expect(typeof textAt(credit, ['topUp', 'errors', name]), `${lng} credit:topUp.errors.${name}`).toBe('string');
    }
  });

  it.each(supportedLanguages)('behavior: %s has auth.errors.{name} for every auth error', (lng) => {
    const common = load(lng, 'common');
    for (const name of authErrorNames) {
      expect(typeof textAt(common, ['auth', 'errors', name]), `${lng} auth.errors.${name}`).toBe('string');
    }
  });
});
