/**
 * The shipping address's field rules (docs/API.md "Buy flow and shipping addresses"), one statement for the contract's
 * schema, the server and the address form's machine: plain text trimmed to 1..max characters without `<` or `>`,
 * and a mobile number (mainland China's 1[3-9] and nine digits with no prefix or +86; any other +country by
 * libphonenumber-js, the kept port of Google's libphonenumber, instead of a hand-written table of countries).
 *
 * The other countries' check (api-schema/internationalPhone.ts) is passed in rather than imported: the contract the
 * app loads at start holds every endpoint's schema, and libphonenumber's 28 KiB would ride along to the sign-in page.
 * The contract's schema checks a +country number's shape; the server and the address form pass the full check.
 */

export const addressTextLimits = { name: 64, region: 128, detail: 256 } as const;
export type AddressTextField = keyof typeof addressTextLimits;
export type AddressField = AddressTextField | 'phone';

/** Why a field is refused: empty (or only spaces), longer than its limit, `<` or `>`, not a mobile number. */
export type AddressFieldProblem = 'required' | 'tooLong' | 'markup' | 'phone';

const MAINLAND_MOBILE = /^1[3-9]\d{9}$/;

/**
 * Checks a text field as the server will, after trimming.
 *
 * @example checkAddressText('detail', '   ') // 'required'
 */
export function checkAddressText(field: AddressTextField, value: string): AddressFieldProblem | null {
  const text = value.trim();
  if (text === '') return 'required';
  if ([...text].length > addressTextLimits[field]) return 'tooLong';
  if (/[<>]/.test(text)) return 'markup';
  return null;
}

/**
 * Checks a mobile number as typed: spaces and dashes may be typed between the digits; no prefix or +86 is a
 * mainland number, another +country must be valid for that country.
 *
 * @param isValidInternational - the check of a +country number other than +86 (its shape only when left out)
 * @example checkPhone('138 0013 8000') // null
 * @example checkPhone('+44 7400 123456', isValidInternationalNumber) // null
 * @example checkPhone('12345') // 'phone'
 */
export function checkPhone(value: string, isValidInternational: (e164: string) => boolean = () => true): AddressFieldProblem | null {
  const typed = value.trim();
  if (typed === '') return 'required';
  const compact = typed.replace(/[\s-]/g, '');
  if (!/^\+?\d{5,20}$/.test(compact)) return 'phone';
  if (!compact.startsWith('+')) return MAINLAND_MOBILE.test(compact) ? null : 'phone';
  if (compact.startsWith('+86')) return MAINLAND_MOBILE.test(compact.slice(3)) ? null : 'phone';
  return isValidInternational(compact) ? null : 'phone';
}

/**
 * Checks one field of the form by its name.
 *
 * @example checkAddressField('phone', 'abc') // 'phone'
 */
export function checkAddressField(field: AddressField, value: string, isValidInternational?: (e164: string) => boolean): AddressFieldProblem | null {
  return field === 'phone' ? checkPhone(value, isValidInternational) : checkAddressText(field, value);
}
