/**
 * Amounts are decimal strings (docs/API.md "Envelope"): formatting never goes through a float. The integer part is
 * grouped by Intl as a bigint (exact at any size), the fraction is kept as written, trimmed to at most 6 digits
 * (the ledger's minor units) and of trailing zeros.
 */
const decimalPattern = /^(-|\+)?(\d+)(?:\.(\d+))?$/;

export interface FormatAmountParameters {
  /** BCP 47 language for digit grouping, e.g. 'zh' or 'en'. */
  locale: string;
  /** Fraction digits to keep at most (default 6, the ledger's precision). */
  maxDecimals?: number;
  /** Fraction digits to show at least (default 2). */
  minDecimals?: number;
  /** Show a + on positive amounts (records of money in and out). */
  signed?: boolean;
}

/**
 * Formats a decimal string for display; anything that is not a decimal string comes back as it is.
 *
 * @param amount - e.g. "1234567.5"
 * @returns e.g. "1,234,567.50"
 * @example
 * formatAmount('1234567.5', { locale: 'en' }); // '1,234,567.50'
 * formatAmount('-0.000001', { locale: 'en' }); // '-0.000001'
 */
export function formatAmount(amount: string, { locale, maxDecimals = 6, minDecimals = 2, signed = false }: FormatAmountParameters): string {
  const match = decimalPattern.exec(amount.trim());
  if (!match) return amount;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const kept = fraction.slice(0, maxDecimals).replace(/0+$/, '').padEnd(minDecimals, '0');
  const grouped = new Intl.NumberFormat(locale, { useGrouping: true }).format(BigInt(whole));
  const isZero = /^0*$/.test(whole) && /^0*$/.test(kept);
  const shownSign = sign === '-' && !isZero ? '-' : signed && !isZero ? '+' : '';
  return `${shownSign}${grouped}${kept ? `.${kept}` : ''}`;
}

