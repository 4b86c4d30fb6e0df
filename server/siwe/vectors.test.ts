/**
 * The spruceid/siwe test vectors (see ../shared/vectors/siwe/README.md), read in place from the shared folder
 * next to the repository: never copied in, so an update there is tested here unchanged.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SiweFormatError } from './errors';
import { validateSiweFields } from './fields';
import { formatSiweMessage } from './format';
import { parseSiweMessage } from './parse';
import { verifySiwe } from './verify';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const vectorsDir = path.resolve(repoRoot, '../shared/vectors/siwe');

function load<T>(name: string): Record<string, T> {
  return JSON.parse(readFileSync(path.join(vectorsDir, name), 'utf8')) as Record<string, T>;
}

/** The vectors write an absent optional field as null; our fields leave it out. */
function withoutNulls(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
}

const VERIFY_OPTIONS = new Set(['signature', 'time', 'domainBinding', 'matchNonce']);

function splitVerificationCase(testCase: Record<string, unknown>) {
  const fields = Object.fromEntries(Object.entries(testCase).filter(([key]) => !VERIFY_OPTIONS.has(key)));
  const str = (key: string) => {
    const value = testCase[key];
    return typeof value === 'string' ? value : undefined;
  };
  const time = str('time');
  return { fields, signature: str('signature') ?? '', time: time ? new Date(time) : undefined, domain: str('domainBinding'), nonce: str('matchNonce') };
}

/** Verifies a case; `stage` says where a refusal happened, so each negative case fails for its own reason. */
async function verifyCase(testCase: Record<string, unknown>): Promise<{ ok: boolean; stage: 'format' | 'verify' }> {
  const { fields, signature, time, domain, nonce } = splitVerificationCase(testCase);
  let message: string;
  let parsed;
  try {
    message = formatSiweMessage(fields);
    parsed = parseSiweMessage(message);
  } catch (error) {
    if (error instanceof SiweFormatError) return { ok: false, stage: 'format' };
    throw error;
  }
  return { ok: await verifySiwe({ message, fields: parsed, signature, time, domain, nonce }), stage: 'verify' };
}

describe('siwe vectors: parsing_positive', () => {
  const cases = load<{ message: string; fields: Record<string, unknown> }>('parsing_positive.json');
  it.each(Object.entries(cases))('parses "%s" to exactly its fields', (_name, testCase) => {
    expect(parseSiweMessage(testCase.message)).toStrictEqual(withoutNulls(testCase.fields));
  });
  it.each(Object.entries(cases))('formats the fields of "%s" back to the same text', (_name, testCase) => {
    expect(formatSiweMessage(testCase.fields)).toBe(testCase.message);
  });
});

describe('siwe vectors: parsing_negative', () => {
  const cases = load<string>('parsing_negative.json');
  it.each(Object.entries(cases))('refuses "%s"', (_name, message) => {
    expect(() => parseSiweMessage(message)).toThrow(SiweFormatError);
  });
});

describe('siwe vectors: parsing_negative_objects', () => {
  const cases = load<Record<string, unknown>>('parsing_negative_objects.json');
  it.each(Object.entries(cases))('refuses the fields of "%s"', (_name, fields) => {
    expect(() => validateSiweFields(fields)).toThrow(SiweFormatError);
    expect(() => formatSiweMessage(fields)).toThrow(SiweFormatError);
  });
});

describe('siwe vectors: verification_positive', () => {
  const cases = load<Record<string, unknown>>('verification_positive.json');
  it.each(Object.entries(cases))('verifies "%s"', async (_name, testCase) => {
    expect(await verifyCase(testCase)).toEqual({ ok: true, stage: 'verify' });
  });
});

describe('siwe vectors: verification_negative', () => {
  const cases = load<Record<string, unknown>>('verification_negative.json');
  it.each(Object.entries(cases))('refuses "%s"', async (name, testCase) => {
    // The "invalid <date>" cases are calendar-impossible dates: refused when the fields are validated. Every other
    // case is a well-formed message that must be refused by verification itself.
    const stage = name.startsWith('invalid ') ? 'format' : 'verify';
    expect(await verifyCase(testCase)).toEqual({ ok: false, stage });
  });
});

describe('siwe vectors: the folder', () => {
  it('still has every file the README lists', () => {
    for (const name of ['parsing_positive.json', 'parsing_negative.json', 'parsing_negative_objects.json', 'verification_positive.json', 'verification_negative.json']) {
      expect(Object.keys(load(name)).length).toBeGreaterThan(0);
    }
  });
});
