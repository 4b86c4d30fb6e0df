/**
 * The address as the form and the save calls hold it, and the edit that makes an address the default: what the
 * address book needs, apart from addressFields.ts's checks (whose international phone rule loads libphonenumber).
 */
import type { Answer } from '../shared/answer';
import type { AddressField, DeliveryAddress } from './buyContract';

/** An address as the form holds it: the texts as typed and the default switch. */
export type AddressForm = Record<AddressField, string> & { isDefault: boolean };
/** What add and edit send besides the deliveryId. */
export type AddressFields = Omit<DeliveryAddress, 'deliveryId'>;
/** What the saveAddress actor sends: deliveryAdd without a deliveryId (under requestId), deliveryEdit with one. */
export interface SaveAddressInput {
  deliveryId: string | null;
  fields: AddressFields;
  /** An add's request id (at most once per id); null for an edit, which is the same however often it is sent. */
  requestId: string | null;
}

/** deliveryAdd's or deliveryEdit's envelope, with the field a 1001 names (the server's message) when known. */
export type SaveAddressAnswer = Answer<DeliveryAddress> & { field?: string | null };

export const blankAddressForm: AddressForm = { name: '', phone: '', region: '', detail: '', isDefault: false };

/**
 * The edit that makes a listed address the default: the address as it is with `isDefault: true` (docs/API.md: the server
 * turns the old default off).
 */
export function defaultEditOf(address: DeliveryAddress | null): SaveAddressInput {
  const { deliveryId, ...fields } = address ?? { ...blankAddressForm, deliveryId: '' };
  return { deliveryId, fields: { ...fields, isDefault: true }, requestId: null };
}
