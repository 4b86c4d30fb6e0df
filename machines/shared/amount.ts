/**
 * Amounts as the ledger keeps them (API.md "Money"): decimal strings on the wire and in machine context, compared
 * and added as bigint minor units with 6 decimals, never as floats. Withdraw, transfer and exchange share these
 * checks, so each field says the same thing about the same input.
 */

/** Decimals of one minor unit (API.md "Envelope": the server stores integer minor units, 6 decimals). */
export const amountDecimals = 6;
/** The most integer digits a request amount may have (api-schema/primitives.ts amountSchema). */
export const maxIntegerDigits = 12;

const scale = 10n ** BigInt(amountDecimals);
/** What a member may have typed on the way to an amount: digits with at most one dot ("12", "12.", ".5"). */
const typedPattern = /^(\d*)(?:\.(\d*))?$/;

/**
 * Reads a decimal string as minor units; null for anything that is not one (signs, spaces, exponents, commas, more
 * than 6 decimals). A trailing or leading dot is accepted as typed ("12." is 12, ".5" is 0.5).
 *
 * @example parseAmount('12.5') // 12500000n
 * @example parseAmount('1.0000001') // null
 */
export function parseAmount(text: string): bigint | null {
  const match = typedPattern.exec(text);
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  if (fraction.length > amountDecimals) return null;
  return BigInt(whole || '0') * scale + BigInt(fraction.padEnd(amountDecimals, '0'));
}

/**
 * Writes minor units as the API's decimal string: no leading zeros, no trailing fraction zeros, a minus when
 * negative.
 *
 * @example formatMinorUnits(12500000n) // '12.5'
 * @example formatMinorUnits(-1n) // '-0.000001'
 */
export function formatMinorUnits(units: bigint): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const whole = magnitude / scale;
  const fraction = (magnitude % scale).toString().padStart(amountDecimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole.toString()}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The canonical form of a typed amount, as the API accepts it ("007.50" → "7.5"); null when it is no amount.
 *
 * @example normalizeAmount('12.') // '12'
 */
export function normalizeAmount(text: string): string | null {
  const units = parseAmount(text);
  return units === null ? null : formatMinorUnits(units);
}

/**
 * a − b of two decimal strings, as a decimal string; null when either is no amount.
 *
 * @example subtractAmounts('12.5', '1') // '11.5'
 */
export function subtractAmounts(a: string, b: string): string | null {
  const left = parseAmount(a);
  const right = parseAmount(b);
  return left === null || right === null ? null : formatMinorUnits(left - right);
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
