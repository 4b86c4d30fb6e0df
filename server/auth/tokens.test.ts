import { describe, expect, it } from 'vitest';
import { hashToken, tokenFromHeader } from './tokens';

describe('tokenFromHeader', () => {
  it.each([
    ['abc', 'abc'],
    ['"abc"', 'abc'],
    ['Bearer abc', 'abc'],
    ['bearer "abc"', 'abc'],
    ['  BEARER   abc  ', 'abc'],
  ])('behavior: reads %j as %j', (header, token) => {
    expect(tokenFromHeader(header)).toBe(token);
  });

  it.each([undefined, '', '""', 'Bearer ', 'x'.repeat(513)])('behavior: refuses %j', (header) => {
    expect(tokenFromHeader(header)).toBeUndefined();
  });
});

describe('hashToken', () => {
  it('behavior: is hex sha256', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
