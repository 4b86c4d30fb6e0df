/**
 * The RFC 3986 and RFC 3339 productions that EIP-4361 borrows, as anchored regular expressions built from the
 * RFCs' ABNF. Each constant names the ABNF rule it implements, so the strict parser can be checked against
 * https://eips.ethereum.org/EIPS/eip-4361#message-format rule by rule.
 */

// RFC 3986 section 2: character classes (written for use inside [...]).
const UNRESERVED = 'A-Za-z0-9\\-._~';
const SUB_DELIMS = "!$&'()*+,;=";
const GEN_DELIMS = ':/?#\\[\\]@';
const PCT_ENCODED = '%[0-9A-Fa-f]{2}';
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT_ENCODED})`;

// RFC 3986 section 3.2: authority = [ userinfo "@" ] host [ ":" port ].
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT_ENCODED})*`;
const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])';
const IPV4 = `${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
/** The nine alternatives of RFC 3986's IPv6address, in the RFC's order. */
const IPV6 =
  '(?:' +
  [
    `(?:${H16}:){6}${LS32}`,
    `::(?:${H16}:){5}${LS32}`,
    `(?:${H16})?::(?:${H16}:){4}${LS32}`,
    `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
    `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
    `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
    `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
    `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
    `(?:(?:${H16}:){0,6}${H16})?::`,
  ].join('|') +
  ')';
const IPV_FUTURE = `v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+`;
const IP_LITERAL = `\\[(?:${IPV6}|${IPV_FUTURE})\\]`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT_ENCODED})*`;
const HOST = `(?:${IP_LITERAL}|${IPV4}|${REG_NAME})`;
const PORT = '[0-9]*';
const AUTHORITY = `(?:${USERINFO}@)?${HOST}(?::${PORT})?`;

// RFC 3986 section 3.3: paths.
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const PATH_ABEMPTY = `(?:/${SEGMENT})*`;
const PATH_ABSOLUTE = `/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?`;
const PATH_ROOTLESS = `${SEGMENT_NZ}(?:/${SEGMENT})*`;
const HIER_PART = `(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_ROOTLESS}|)`;
const QUERY_OR_FRAGMENT = `(?:${PCHAR}|[/?])*`;
const SCHEME = '[A-Za-z][A-Za-z0-9+\\-.]*';

/** RFC 3986 `scheme`. */
export const schemePattern = new RegExp(`^${SCHEME}$`);
/** RFC 3986 `URI` = scheme ":" hier-part [ "?" query ] [ "#" fragment ]. */
export const uriPattern = new RegExp(`^${SCHEME}:${HIER_PART}(?:\\?${QUERY_OR_FRAGMENT})?(?:#${QUERY_OR_FRAGMENT})?$`);
/** RFC 3986 `authority`; EIP-4361 calls it `domain`. The parser also requires a non-empty host. */
export const authorityPattern = new RegExp(`^${AUTHORITY}$`);
/** The host part of an authority, captured, to reject an empty reg-name (EIP-4361 makes domain required). */
export const authorityHostPattern = new RegExp(`^(?:${USERINFO}@)?(${HOST})(?::${PORT})?$`);
/** EIP-4361 `statement` = *( reserved / unreserved / " " ): one line of URI-safe text. */
export const statementPattern = new RegExp(`^[${GEN_DELIMS}${SUB_DELIMS}${UNRESERVED} ]*$`);
/** EIP-4361 `request-id` = *pchar. */
export const requestIdPattern = new RegExp(`^${PCHAR}*$`);
/** EIP-4361 `nonce` = 8*( ALPHA / DIGIT ). */
export const noncePattern = /^[A-Za-z0-9]{8,}$/;
/** EIP-4361 `chain-id` = 1*DIGIT. */
export const chainIdPattern = /^[0-9]+$/;
/** EIP-4361 `address` = "0x" 40*40HEXDIG (the EIP-55 checksum is checked separately). */
export const addressPattern = /^0x[0-9a-fA-F]{40}$/;

// RFC 3339 section 5.6. ABNF literals are case-insensitive (RFC 5234), so "t" and "z" are allowed too.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Parses an RFC 3339 `date-time`, refusing what the grammar or the calendar refuses (2022-02-31, 24:00, +25:00).
 * JS `Date.parse` is no help here: it accepts other formats and rolls 31 February over into March.
 *
 * @param value - the text, e.g. "2021-09-30T16:25:24.000Z"
 * @returns the instant in epoch milliseconds, or undefined when the text is not a valid date-time
 * @example
 * parseRfc3339('2021-09-30T16:25:24-02:00'); // 1633026324000
 * parseRfc3339('2022-02-31T17:09:38.578Z'); // undefined
 */
export function parseRfc3339(value: string): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  // time-second allows 60 for a leap second (RFC 3339 section 5.7); Date.UTC rolls it into the next minute.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetMinutes = 0;
  if (!m[8]) {
    const offsetHour = Number(m[10]);
    const offsetMinute = Number(m[11]);
    if (offsetHour > 23 || offsetMinute > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute);
  }
  const millis = m[7] ? Number(m[7].slice(1, 4).padEnd(3, '0')) : 0;
  const instant = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis));
  // Date.UTC maps years 0..99 to 1900..1999; put the real year back.
  if (year < 100) instant.setUTCFullYear(instant.getUTCFullYear() - 1900);
  return instant.getTime() - offsetMinutes * 60_000;
}
