/**
 * A +country mobile number other than China's, by libphonenumber-js (its small metadata set): valid for its country.
 * Kept apart from api-schema/address.ts so that only the server and the address form load it.
 */
import { isValidPhoneNumber } from 'libphonenumber-js/min';

/**
 * True when the number, in E.164 form, is valid for its country.
 *
 * @example isValidInternationalNumber('+447400123456') // true
 */
export function isValidInternationalNumber(e164: string): boolean {
  return isValidPhoneNumber(e164);
}
