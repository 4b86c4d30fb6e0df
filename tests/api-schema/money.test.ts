import { describe, expect, it } from 'vitest';
import { balanceSchema } from '../../api-schema/primitives';
import { formatMinor, toMinor } from '../../api-schema/amount';

describe('formatMinor', () => {
  it.each([
    [0n, '0'],
    [1n, '0.000001'],
    [12_500_000n, '12.5'],
    [5_000_000_000n, '5000'],
    [-3_000_001n, '-3.000001'],
    [123_456_789_012_345_678_901_234n, '123456789012345678.901234'],
  ])('behavior: formats %s as %s', (minor, text) => {
    expect(formatMinor(minor)).toBe(text);
  });

  it('behavior: produces what the contract accepts', () => {
    for (const minor of [0n, 1n, 10n, 999_999n, 1_000_000n, 12_345_678n]) expect(balanceSchema.safeParse(formatMinor(minor)).success).toBe(true);
  });
});

describe('toMinor', () => {
  it.each([
    ['0', 0n],
    ['12.5', 12_500_000n],
    ['0.000001', 1n],
    ['10', 10_000_000n],
  ])('behavior: parses %s', (text, minor) => {
    expect(toMinor(text)).toBe(minor);
    expect(formatMinor(toMinor(text))).toBe(text);
  });

  it.each(['', '1.0000001', '-1', '1e3', '.5', '1.'])('behavior: refuses %j', (text) => {
    expect(() => toMinor(text)).toThrow(RangeError);
  });
});
