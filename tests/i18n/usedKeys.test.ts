/**
 * Every literal translation key the screens use exists in every language, so no member ever sees a raw key.
 * Keys are read from the source as written: t('ns:key') or t('key') with the component's first namespace.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textOrPlural } from '../support/localeKeys';

const root = path.resolve(import.meta.dirname, '../..');
const languages = ['zh', 'en'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function lookup(lng: string, ns: string, key: string): unknown {
  const file = path.join(root, 'locales', lng, `${ns}.json`);
  let node: unknown = JSON.parse(readFileSync(file, 'utf8'));
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return node;
}

const usedKeys = sourceFiles(path.join(root, 'src')).flatMap((file) => {
  const text = readFileSync(file, 'utf8');
  const defaultNs = /useTranslation\(\[?'(\w+)'/.exec(text)?.[1] ?? 'common';
  return [...text.matchAll(/\bt\('([\w.:-]+)'/g)].map((match) => {
    const raw = match[1] ?? '';
    const [ns, key] = raw.includes(':') ? (raw.split(':') as [string, string]) : [defaultNs, raw];
    return { file: path.relative(root, file), ns, key };
  });
});

describe('translation keys used by the screens', () => {
  it('finds the keys it checks', () => {
    expect(usedKeys.length).toBeGreaterThan(40);
  });
  it.each(languages)('exist in %s', (lng) => {
    const missing = usedKeys.filter(({ ns, key }) => typeof textOrPlural((name) => lookup(lng, ns, name), key) !== 'string').map(({ file, ns, key }) => `${file}: ${ns}:${key}`);
    expect(missing).toEqual([]);
  });
});
