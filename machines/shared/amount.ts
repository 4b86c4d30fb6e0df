/**
 * A member's typed amounts: the checks every money form shares (withdraw, transfer, exchange), so each field says
 * the same thing about the same input. Conversions are the one amount rule of api-schema/amount.ts.
 */
import { amountDecimals, formatMinor, maxIntegerDigits, minorPerUnit, parseAmount } from '../../api-schema/amount';


export { amountDecimals, formatMinor, maxIntegerDigits, parseAmount } from '../../api-schema/amount';

const scale = minorPerUnit;
/** What a member may have typed on the way to an amount: digits with at most one dot ("12", "12.", ".5"). */
const typedPattern = /^(\d*)(?:\.(\d*))?$/;

/**
 * The canonical form of a typed amount, as the API accepts it ("007.50" → "7.5"); null when it is no amount.
 *
 * @example normalizeAmount('12.') // '12'
 */
export function normalizeAmount(text: string): string | null {
  const units = parseAmount(text);
  return units === null ? null : formatMinor(units);
}

/**
 * a − b of two decimal strings, as a decimal string; null when either is no amount.
 *
 * @example subtractAmounts('12.5', '1') // '11.5'
 */
export function subtractAmounts(a: string, b: string): string | null {
  const left = parseAmount(a);
  const right = parseAmount(b);
  return left === null || right === null ? null : formatMinor(left - right);
}

/** Why a typed amount cannot be sent as it is: the format first, then each limit in the order a member meets them. */
export type AmountError =
  | 'empty'
  | 'format'
  | 'tooManyDecimals'
  | 'tooManyDigits'
  | 'notPositive'
  | 'belowMin'
  | 'aboveMax'
  | 'aboveBalance'
  | 'aboveDailyCap';

/** Every amount error name (locale keys exist for each; the locale tests check that). */
export const amountErrors: readonly AmountError[] = [
  'empty',
  'format',
  'tooManyDecimals',
  'tooManyDigits',
  'notPositive',
  'belowMin',
  'aboveMax',
  'aboveBalance',
  'aboveDailyCap',
];

/**
 * Checks the form of a typed amount as the API's amountSchema will: digits, at most 6 decimals, at most 12 integer
 * digits, more than 0. Returns null when it is an amount the API accepts (after normalizeAmount).
 *
 * @example checkAmountFormat('1.1234567') // 'tooManyDecimals'
 */
export function checkAmountFormat(text: string): AmountError | null {
  if (text.trim() === '') return 'empty';
  const match = typedPattern.exec(text);
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return 'format';
  if ((match[2] ?? '').length > amountDecimals) return 'tooManyDecimals';
  const units = parseAmount(text);
  if (units === null) return 'format';
  if (units / scale >= 10n ** BigInt(maxIntegerDigits)) return 'tooManyDigits';
  return units > 0n ? null : 'notPositive';
}

/** The limits an amount must keep, each a decimal string; a limit left out is not checked. */
export interface AmountLimits {
  /** The smallest amount allowed (dappParam minWithdraw, minTransfer). */
  min?: string;
  /** The largest amount allowed (dappParam maxWithdraw). */
  max?: string;
  /** What the member holds (meInfo creditBalance). */
  balance?: string;
  /** The most a member may move in one UTC day (dappParam dailyWithdrawCap); the server knows today's total. */
  dailyCap?: string;
}

/**
 * Checks a typed amount: its form, then min, max, balance and daily cap. Returns the first error, or null.
 * A limit that is not a decimal string is not checked (the server checks it anyway).
 *
 * @example checkAmount('5', { min: '10' }) // 'belowMin'
 * @example checkAmount('12.5', { min: '10', max: '10000', balance: '20' }) // null
 */
export function checkAmount(text: string, limits: AmountLimits): AmountError | null {
  const formError = checkAmountFormat(text);
  if (formError) return formError;
  const units = parseAmount(text) ?? 0n;
  const limit = (value: string | undefined) => (value === undefined ? null : parseAmount(value));
  const min = limit(limits.min);
  const max = limit(limits.max);
  const balance = limit(limits.balance);
  const dailyCap = limit(limits.dailyCap);
  if (min !== null && units < min) return 'belowMin';
  if (max !== null && units > max) return 'aboveMax';
  if (balance !== null && units > balance) return 'aboveBalance';
  if (dailyCap !== null && units > dailyCap) return 'aboveDailyCap';
  return null;
}
