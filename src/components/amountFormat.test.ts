import { describe, expect, it } from 'vitest';
import { formatAmount } from './amountFormat';

describe('formatAmount', () => {
  it('groups the integer part and pads to two decimals', () => {
    expect(formatAmount('1234567.5', { locale: 'en' })).toBe('1,234,567.50');
    expect(formatAmount('0', { locale: 'en' })).toBe('0.00');
  });
  it('keeps up to six decimals exactly, trimming trailing zeros', () => {
    expect(formatAmount('0.000001', { locale: 'en' })).toBe('0.000001');
    expect(formatAmount('12.3400000', { locale: 'en' })).toBe('12.34');
    expect(formatAmount('1.1234567', { locale: 'en' })).toBe('1.123456');
  });
  it('is exact beyond the range of a float', () => {
    expect(formatAmount('999999999999.999999', { locale: 'en' })).toBe('999,999,999,999.999999');
    expect(formatAmount('9007199254740993', { locale: 'en' })).toBe('9,007,199,254,740,993.00');
  });
  it('shows signs for records and never a negative zero', () => {
    expect(formatAmount('-5', { locale: 'en', signed: true })).toBe('-5.00');
    expect(formatAmount('5', { locale: 'en', signed: true })).toBe('+5.00');
    expect(formatAmount('-0.0000001', { locale: 'en', signed: true })).toBe('0.00');
  });
  it('returns anything that is not a decimal string unchanged', () => {
    expect(formatAmount('1e3', { locale: 'en' })).toBe('1e3');
    expect(formatAmount('', { locale: 'en' })).toBe('');
  });
});

