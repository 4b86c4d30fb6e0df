/**
 * The one amount rule (docs/API.md "Money"), for the app, the server and the contract's schemas alike: amounts travel as
 * decimal strings and are kept, compared and added as bigint minor units with 6 decimals, never as floats. The
 * schemas' patterns are built from the same constants, so a string the contract lets through is one this module
 * reads, and what it writes the contract accepts.
 */

/** Decimals of one minor unit (docs/API.md "Envelope": the server stores integer minor units, 6 decimals). */
export const amountDecimals = 6;
/** The most integer digits a request amount may have. */
export const maxIntegerDigits = 12;
/** Minor units in one unit (10^6). */
export const minorPerUnit = 10n ** BigInt(amountDecimals);

/** A request amount's form: no leading zeros, at most 12 integer digits and 6 decimals (its value > 0 is checked apart). */
export const amountPattern = new RegExp(`^(0|[1-9]\\d{0,${maxIntegerDigits - 1}})(\\.\\d{1,${amountDecimals}})?$`);
/** A balance or other unsigned amount in a result ("0", "12.5"); up to 18 integer digits, as a bigint column holds. */
export const balancePattern = new RegExp(`^(0|[1-9]\\d{0,17})(\\.\\d{1,${amountDecimals}})?$`);
/** A signed amount, as in ledger records ("-20", "3.5"). */
export const signedAmountPattern = new RegExp(`^-?(0|[1-9]\\d{0,17})(\\.\\d{1,${amountDecimals}})?$`);

/** Digits with at most one dot, as a member may type them on the way to an amount ("12", "12.", ".5"). */
const decimalPattern = /^(\d*)(?:\.(\d*))?$/;

/**
 * Reads a decimal string as minor units; null for anything that is not one (signs, spaces, exponents, commas, more
 * than 6 decimals). A trailing or leading dot is read as typed ("12." is 12, ".5" is 0.5).
 *
 * @example parseAmount('12.5') // 12_500_000n
 * @example parseAmount('1.0000001') // null
 */
export function parseAmount(text: string): bigint | null {
  const match = decimalPattern.exec(text);
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if ((whole === '' && fraction === '') || fraction.length > amountDecimals) return null;
  return BigInt(whole || '0') * minorPerUnit + BigInt(fraction.padEnd(amountDecimals, '0'));
}

/**
 * Minor units of an unsigned amount as the contract writes them (digits on both sides of a dot, at most 6 decimals):
 * for strings the contract already checked, so a failure is a bug, not a member's typing.
 *
 * @throws RangeError when the text is no such amount ('.5' and '12.' too)
 * @example toMinor('20') // 20_000_000n
 */
export function toMinor(text: string): bigint {
  const units = /^\d+(\.\d+)?$/.test(text) ? parseAmount(text) : null;
  if (units === null) throw new RangeError(`not an amount: ${text}`);
  return units;
}

/**
 * Writes minor units as the API's decimal string: no leading zeros, no trailing fraction zeros, a minus when
 * negative.
 *
 * @example formatMinor(12_500_000n) // '12.5'
 * @example formatMinor(-1n) // '-0.000001'
 */
export function formatMinor(units: bigint): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const whole = magnitude / minorPerUnit;
  const fraction = (magnitude % minorPerUnit).toString().padStart(amountDecimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole.toString()}${fraction ? `.${fraction}` : ''}`;
}

/** The two directions of a flash exchange, named by what the member pays. */
export type ExchangeFrom = 'WPOS' | 'CREDIT';

/**
 * What a flash exchange pays out (docs/API.md "Money"): the rate is CREDIT per 1 WPOS; WPOS→CREDIT receives
 * amount × rate, CREDIT→WPOS amount ÷ rate, each rounded down to 6 decimals, in minor units throughout. The server
 * moves this and the app previews it, so both read this one function. 0 (the server's 3002) when the rate is not
 * positive or the result rounds to nothing.
 *
 * @example exchangeReceived(10_000_000n, 'WPOS', 350_000n) // 3_500_000n (10 WPOS at 0.35 → 3.5 CREDIT)
 * @example exchangeReceived(1n, 'CREDIT', 3_000_000n) // 0n
 */
export function exchangeReceived(paid: bigint, from: ExchangeFrom, rate: bigint): bigint {
  if (rate <= 0n || paid <= 0n) return 0n;
  return from === 'WPOS' ? (paid * rate) / minorPerUnit : (paid * minorPerUnit) / rate;
}
