/** Beyond the shared vectors: what the strict parser refuses that viem's lenient one accepts, and RFC details. */
import { privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage as viemParse, createSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { SiweFormatError } from './errors';
import { isSiweDomain } from './fields';
import { formatSiweMessage } from './format';
import { parseRfc3339, uriPattern } from './grammar';
import { parseSiweMessage } from './parse';
import { verifySiwe } from './verify';

const account = privateKeyToAccount('0x1111111111111111111111111111111111111111111111111111111111111111');
const base = {
  domain: 'member.test',
  address: account.address,
  uri: 'https://member.test/login',
  version: '1' as const,
  chainId: 56,
  nonce: 'a1b2c3d4e5f6a7b8',
  issuedAt: new Date('2026-11-22T12:00:00.000Z'),
};

describe('strict parser', () => {
  it('behavior: reads what viem createSiweMessage writes, with and without optional fields', () => {
    const full = createSiweMessage({
      ...base,
      statement: 'Sign in to Member DApp',
      expirationTime: new Date('2026-11-22T12:05:00.000Z'),
      notBefore: new Date('2026-11-22T11:59:00.000Z'),
      requestId: 'req-1',
      resources: ['https://member.test/terms'],
      scheme: 'https',
    });
    expect(parseSiweMessage(full)).toEqual({
      scheme: 'https',
      domain: 'member.test',
      address: account.address,
      statement: 'Sign in to Member DApp',
      uri: 'https://member.test/login',
      version: '1',
      chainId: 56,
      nonce: 'a1b2c3d4e5f6a7b8',
      issuedAt: '2026-11-22T12:00:00.000Z',
      expirationTime: '2026-11-22T12:05:00.000Z',
      notBefore: '2026-11-22T11:59:00.000Z',
      requestId: 'req-1',
      resources: ['https://member.test/terms'],
    });
    expect(formatSiweMessage(parseSiweMessage(full))).toBe(full);
    const bare = createSiweMessage(base);
    expect(formatSiweMessage(parseSiweMessage(bare))).toBe(bare);
  });

  const good = createSiweMessage({ ...base, statement: 'Sign in' });
  it.each([
    ['a trailing line break', `${good}\n`],
    ['CRLF line ends', good.replaceAll('\n', '\r\n')],
    ['a leading space', ` ${good}`],
    ['text before the header', `hello\n${good}`],
    ['a lowercase address', good.replace(account.address, account.address.toLowerCase())],
    ['version 2', good.replace('Version: 1', 'Version: 2')],
    ['a duplicated field', good.replace('Nonce: ', 'Nonce: a1b2c3d4e5f6a7b8\nNonce: ')],
    ['an unknown field', `${good}\nFoo: bar`],
    ['31 February', good.replace('2026-11-22T12:00:00.000Z', '2026-02-31T12:00:00.000Z')],
    ['hour 24', good.replace('2026-11-22T12:00:00.000Z', '2026-11-22T24:00:00.000Z')],
    ['a date without zone', good.replace('2026-11-22T12:00:00.000Z', '2026-11-22T12:00:00')],
    ['a non-ASCII statement', good.replace('Sign in', 'Sign in 登录')],
    ['a statement with a quote', good.replace('Sign in', 'Sign "in"')],
    ['a chain id with a sign', good.replace('Chain ID: 56', 'Chain ID: +56')],
    ['a nonce with a dash', good.replace('a1b2c3d4e5f6a7b8', 'a1b2c3d4-e5f6a7b8')],
  ])('behavior: refuses %s', (_name, message) => {
    expect(() => parseSiweMessage(message)).toThrow(SiweFormatError);
  });

  it('behavior: refuses messages viem would parse leniently', () => {
    const outOfOrder = good.replace(/(Version: 1)\n(Chain ID: 56)/, '$2\n$1');
    expect(viemParse(outOfOrder).address).toBe(account.address);
    expect(() => parseSiweMessage(outOfOrder)).toThrow(SiweFormatError);
  });

  it('behavior: names the field at fault', () => {
    expect(() => parseSiweMessage(good.replace('Chain ID: 56', 'Chain ID: x'))).toThrowErrorMatchingInlineSnapshot(`[SiweFormatError: Invalid EIP-4361 chainId: must be digits]`);
  });
});

describe('grammar', () => {
  it.each([
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['2026-11-22t12:00:00z', Date.UTC(2026, 10, 22, 12)],
    ['2026-11-22T12:00:00.123456+08:00', Date.UTC(2026, 10, 22, 4, 0, 0, 123)],
    ['2016-12-31T23:59:60Z', Date.UTC(2017, 0, 1)],
  ])('behavior: parses the RFC 3339 date %s', (text, millis) => {
    expect(parseRfc3339(text)).toBe(millis);
  });

  it('behavior: keeps years below 100 (Date.UTC would read 0050 as 1950)', () => {
    expect(new Date(parseRfc3339('0050-01-01T00:00:00Z') ?? 0).toISOString()).toBe('0050-01-01T00:00:00.000Z');
  });

  it.each(['2023-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-04-31T00:00:00Z', '2026-01-01T00:60:00Z', '2026-01-01T00:00:00+24:00', '2026-01-01 00:00:00Z', '2026-1-01T00:00:00Z'])(
    'behavior: refuses the date %s',
    (text) => {
      expect(parseRfc3339(text)).toBeUndefined();
    },
  );

  it.each(['https://a.b/c?d=e#f', 'urn:isbn:0451450523', 'ipfs://Qm', 'https://[::1]:8080/', 'https://[v1.fe]/', 'mailto:a@b.c', 'https://a%20b.c/'])('behavior: accepts the URI %s', (uri) => {
    expect(uriPattern.test(uri)).toBe(true);
  });

  it.each(['', ':x', 'https://a b', 'https://[::g]/', 'https://a.b/%zz', '1http://a', 'https://a.b/<'])('behavior: refuses the URI %j', (uri) => {
    expect(uriPattern.test(uri)).toBe(false);
  });

  it.each(['example.com', 'a@example.com:8080', '[::cafe]', '127.0.0.1:4361', 'localhost'])('behavior: accepts the domain %s', (domain) => {
    expect(isSiweDomain(domain)).toBe(true);
  });

  it.each(['', ':8080', 'user@', 'a/b', 'a b', 'ex#ample.com'])('behavior: refuses the domain %j', (domain) => {
    expect(isSiweDomain(domain)).toBe(false);
  });
});

describe('verifySiwe', () => {
  it('behavior: accepts a viem-signed message and refuses it for another domain or nonce', async () => {
    const message = createSiweMessage({ ...base, expirationTime: new Date('2026-11-22T12:05:00.000Z') });
    const signature = await account.signMessage({ message });
    const fields = parseSiweMessage(message);
    expect(await verifySiwe({ message, fields, signature, domain: 'member.test', nonce: base.nonce })).toBe(true);
    expect(await verifySiwe({ message, fields, signature, domain: 'other.test' })).toBe(false);
    expect(await verifySiwe({ message, fields, signature, nonce: 'ffffffffffffffff' })).toBe(false);
    expect(await verifySiwe({ message, fields, signature, time: new Date('2026-11-22T12:05:00.000Z') })).toBe(false);
  });
});
