/**
 * The address form's fields and what the form knows about them: the values as typed, each field's problem by the
 * one rule of api-schema/address.ts, whether anything differs from what the form started with, and which field a
 * 1001 names.
 */
import { checkAddressField } from '../../api-schema/address';
import type { AddressField, AddressFieldProblem, DeliveryAddress } from './buyContract';
import type { AddressForm } from './addressShape';

// The shapes and the default edit live apart (addressShape.ts) so the address book does not load the phone check.
export { blankAddressForm, defaultEditOf } from './addressShape';
export type { AddressFields, AddressForm, SaveAddressAnswer, SaveAddressInput } from './addressShape';

/** The form's text fields, in the order the page shows them; the region is the picker's 'province / city / district'. */
export const addressFields: readonly AddressField[] = ['name', 'phone', 'region', 'detail'];

/** A field's problem: the shared rule's, or 'refused' when the server refused a value the form let through. */
export type AddressProblem = AddressFieldProblem | 'refused';
export type TouchedFields = Record<AddressField, boolean>;

export const untouched: TouchedFields = { name: false, phone: false, region: false, detail: false };
export const allTouched: TouchedFields = { name: true, phone: true, region: true, detail: true };

/** The form of an address being edited. */
export const formOf = (address: DeliveryAddress): AddressForm => ({
  name: address.name,
  phone: address.phone,
  region: address.region,
  detail: address.detail,
  isDefault: address.isDefault,
});

/**
 * The check of a +country number other than China's (api-schema/internationalPhone.ts, libphonenumber-js): about
 * 27 KiB the form loads only when such a number is typed; null until then.
 */
export type InternationalPhoneCheck = (e164: string) => boolean;

/** Not checked yet is not valid: a +country number passes only once its country's rules are here. */
const notCheckedYet: InternationalPhoneCheck = () => false;

/**
 * Each field's problem by api-schema/address.ts (an empty region is 'required': none was chosen).
 *
 * @param internationalPhone - the +country check, or null while it is not loaded
 */
export function problemsOf(form: AddressForm, internationalPhone: InternationalPhoneCheck | null): Record<AddressField, AddressFieldProblem | null> {
  return {
    name: checkAddressField('name', form.name),
    phone: checkAddressField('phone', form.phone, internationalPhone ?? notCheckedYet),
    region: checkAddressField('region', form.region),
    detail: checkAddressField('detail', form.detail),
  };
}

/** True when every field passes: the only form the machine sends. */
export const isFormValid = (form: AddressForm, internationalPhone: InternationalPhoneCheck | null): boolean =>
  Object.values(problemsOf(form, internationalPhone)).every((problem) => problem === null);

/**
 * True when the phone as typed is a +country number other than China's, which only the international rules can
 * check (mainland numbers, with or without +86, need nothing more).
 *
 * @example needsInternationalRules('+44 7400 123456') // true
 */
export function needsInternationalRules(phone: string): boolean {
  const compact = phone.trim().replace(/[\s-]/g, '');
  return compact.startsWith('+') && !compact.startsWith('+86');
}

/** True when the form holds something other than it started with (a leave asks first). */
export const isFormChanged = (form: AddressForm, start: AddressForm): boolean =>
  form.isDefault !== start.isDefault || addressFields.some((field) => form[field] !== start[field]);

/** The field a 1001's message names (the server writes the field name alone), or null when it names none of the form's. */
export function fieldNamed(message: string | null | undefined): AddressField | null {
  return addressFields.find((field) => field === message) ?? null;
}
