import { describe, expect, it } from 'vitest';
import { amountSchema } from '../../api-schema/primitives';
import { checkAmount, checkAmountFormat, formatMinor, normalizeAmount, parseAmount, subtractAmounts } from './amount';

describe('parseAmount', () => {
  it.each([
    ['0', 0n],
    ['12.5', 12_500_000n],
    ['0.000001', 1n],
    ['12.', 12_000_000n],
    ['.5', 500_000n],
    ['007.50', 7_500_000n],
    ['999999999999.999999', 999_999_999_999_999_999n],
  ])('behavior: reads %j as minor units', (text, units) => {
    expect(parseAmount(text)).toBe(units);
  });

  it.each(['', '.', '-1', '+1', '1e3', '1,5', ' 1', '1.0000001', 'abc', '1.2.3', '0x10'])('behavior: refuses %j', (text) => {
    expect(parseAmount(text)).toBeNull();
  });
});

describe('formatMinor', () => {
  it.each([
    [0n, '0'],
    [1n, '0.000001'],
    [12_500_000n, '12.5'],
    [-1n, '-0.000001'],
    [-11_500_000n, '-11.5'],
    [123_456_789_000_000n, '123456789'],
  ])('behavior: writes %s as %j', (units, text) => {
    expect(formatMinor(units)).toBe(text);
  });

  it('behavior: round-trips exactly beyond float precision', () => {
    expect(normalizeAmount('900719925474.099301')).toBe('900719925474.099301');
  });
});

describe('normalizeAmount and subtractAmounts', () => {
  it('behavior: normalizes what a member types into what the API accepts', () => {
    expect(normalizeAmount('007.50')).toBe('7.5');
    expect(normalizeAmount('12.')).toBe('12');
    expect(normalizeAmount('x')).toBeNull();
  });

  it('behavior: subtracts exactly, sign included', () => {
    expect(subtractAmounts('0.3', '0.1')).toBe('0.2');
    expect(subtractAmounts('1', '1.000001')).toBe('-0.000001');
    expect(subtractAmounts('1', 'x')).toBeNull();
  });
});

describe('checkAmountFormat', () => {
  it.each([
    ['', 'empty'],
    ['  ', 'empty'],
    ['abc', 'format'],
    ['.', 'format'],
    ['-5', 'format'],
    ['1.1234567', 'tooManyDecimals'],
    ['1000000000000', 'tooManyDigits'],
    ['0', 'notPositive'],
    ['0.000000', 'notPositive'],
    ['0.000001', null],
    ['12.', null],
  ])('behavior: %j is %s', (text, error) => {
    expect(checkAmountFormat(text)).toBe(error);
  });

  it.each(['0', '0.000001', '12.5', '1.1234567', '999999999999', '1000000000000', '-1', '1e3', '12', '0.5'])(
    'agrees with the contract amountSchema once normalized: %j',
    (text) => {
      const normalized = normalizeAmount(text);
      expect(checkAmountFormat(text) === null).toBe(normalized !== null && amountSchema.safeParse(normalized).success);
    },
  );
});

describe('checkAmount', () => {
  const limits = { min: '10', max: '10000', balance: '8000', dailyCap: '5000' };

  it.each([
    ['abc', 'format'],
    ['9.999999', 'belowMin'],
    ['10', null],
    ['10000.000001', 'aboveMax'],
    ['8000.000001', 'aboveBalance'],
    ['5000', null],
    ['5000.000001', 'aboveDailyCap'],
  ])('behavior: %j against min 10, max 10000, balance 8000, cap 5000 is %s', (text, error) => {
    expect(checkAmount(text, limits)).toBe(error);
  });

  it('behavior: a limit that is left out or unreadable is not checked', () => {
    expect(checkAmount('1000000', {})).toBeNull();
    expect(checkAmount('1000000', { max: 'unknown' })).toBeNull();
  });
});
