/**
 * Amounts: the database keeps integer minor units with 6 decimals; the API speaks decimal strings
 * (API.md, "Envelope"). Conversions are string and bigint arithmetic only, never floating point.
 */
export const MINOR_UNITS_PER_UNIT = 1_000_000n;
const DECIMALS = 6;

/**
 * Formats minor units as the API's decimal string, without trailing zeros.
 *
 * @param minor - amount in millionths
 * @returns e.g. "12.5", "0", "-3.000001"
 * @example
 * formatMinor(12_500_000n); // "12.5"
 */
export function formatMinor(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const abs = minor < 0n ? -minor : minor;
  const whole = abs / MINOR_UNITS_PER_UNIT;
  const fraction = (abs % MINOR_UNITS_PER_UNIT).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Parses an unsigned decimal amount (the contract's amountSchema already limits it to 6 decimals).
 *
 * @param amount - e.g. "12.5"
 * @returns the amount in minor units
 * @throws RangeError when the text is not a plain decimal with at most 6 decimals
 * @example
 * parseAmount('12.5'); // 12_500_000n
 */
export function parseAmount(amount: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(amount);
  if (!match) throw new RangeError(`not an amount: ${amount}`);
  return BigInt(match[1] ?? '0') * MINOR_UNITS_PER_UNIT + BigInt((match[2] ?? '').padEnd(DECIMALS, '0'));
}
