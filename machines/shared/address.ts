/**
 * A member's typed addresses (EIP-55 through viem, never a hand-written checksum): what a recipient field says about
 * the text as typed. All-lowercase and all-uppercase addresses carry no checksum and are accepted; a mixed-case one
 * must match its checksum.
 */
import { getAddress, isAddress } from 'viem/utils';

/** Why a typed address cannot be used, in the order a member meets them. */
export type AddressError = 'empty' | 'format' | 'checksum';

const hexAddress = /^0x[0-9a-fA-F]{40}$/;

/**
 * Checks a typed address: its form (0x and 40 hex digits), then its EIP-55 checksum when it mixes cases.
 *
 * @example checkAddress('0x12') // 'format'
 * @example checkAddress('0xabcdefabcdefabcdefabcdefabcdefabcdefabcd') // null
 */
export function checkAddress(text: string): AddressError | null {
  if (text === '') return 'empty';
  if (!hexAddress.test(text)) return 'format';
  // EIP-55: a checksum is only in mixed case; viem's strict check refuses all-uppercase, which carries none.
  const digits = text.slice(2);
  if (digits === digits.toUpperCase()) return null;
  return isAddress(text, { strict: true }) ? null : 'checksum';
}

/**
 * The checksummed form of a typed address, or null while it is none (checkAddress says why).
 *
 * @example checksummed('0xabcdefabcdefabcdefabcdefabcdefabcdefabcd') // '0xABcdEFABcdEFabcdEfAbCdefabcdeFABcDEFabCD'
 */
export function checksummed(text: string): string | null {
  return checkAddress(text) === null ? getAddress(`0x${text.slice(2).toLowerCase()}`) : null;
}

/**
 * Whether two addresses name the same account (case aside).
 *
 * @example sameAddress('0xAB…', '0xab…') // true
 */
export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
