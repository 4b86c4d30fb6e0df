/**
 * What the address form shows, read from the machine's snapshot: each field's value and the problem it shows (once
 * touched or after a save attempt), whether the form would be sent and whether leaving loses changes, and what the
 * member may do next (snapshot.can), never recomputed in a component.
 */
import type { SnapshotFrom } from 'xstate';
import type { ErrorInfo } from '../shared/errorInfo';
import { blankAddressForm, formOf, isFormChanged, isFormValid, needsInternationalRules, problemsOf, type AddressForm, type AddressProblem } from './addressFields';
import type { AddressFormMachine } from './addressFormMachine';
import type { AddressField, DeliveryAddress } from './buyContract';

type AddressFormSnapshot = SnapshotFrom<AddressFormMachine>;

export type AddressFormView = AddressFormSnapshot['value'];

export const selectAddressFormView = (snapshot: AddressFormSnapshot): AddressFormView => snapshot.value;
export const selectMode = (snapshot: AddressFormSnapshot): 'add' | 'edit' => (snapshot.context.original ? 'edit' : 'add');
export const selectForm = (snapshot: AddressFormSnapshot): AddressForm => snapshot.context.form;
export const selectIsBusy = (snapshot: AddressFormSnapshot): boolean => snapshot.hasTag('busy');

/**
 * The problem a field shows: its own (api-schema/address.ts) once touched or after a save attempt, else the
 * server's refusal of it; null when it shows none.
 */
export function selectFieldProblem(snapshot: AddressFormSnapshot, field: AddressField): AddressProblem | null {
  const { form, touched, refusedField, internationalPhone } = snapshot.context;
  const own = touched[field] ? problemsOf(form, internationalPhone)[field] : null;
  return own ?? (refusedField === field ? 'refused' : null);
}

/** True when every field passes: a save sends the form (otherwise it shows every problem). */
export const selectIsComplete = (snapshot: AddressFormSnapshot): boolean => isFormValid(snapshot.context.form, snapshot.context.internationalPhone);
/** True when the phone is a +country number and its rules are not loaded yet: the page loads them. */
export const selectNeedsPhoneRules = (snapshot: AddressFormSnapshot): boolean =>
  snapshot.context.internationalPhone === null && needsInternationalRules(snapshot.context.form.phone);
/** True when leaving would lose changes (the page asks first, through user.leave). */
export const selectIsDirty = (snapshot: AddressFormSnapshot): boolean =>
  isFormChanged(snapshot.context.form, snapshot.context.original ? formOf(snapshot.context.original) : blankAddressForm);
/** True when the default switch cannot be turned off (editing the current default: docs/API.md keeps it the default). */
export const selectDefaultLocked = (snapshot: AddressFormSnapshot): boolean =>
  snapshot.context.form.isDefault && !snapshot.can({ type: 'field.setDefault', isDefault: false });

export const selectCanSave = (snapshot: AddressFormSnapshot): boolean => snapshot.can({ type: 'user.save', requestId: '' });
export const selectCanRetry = (snapshot: AddressFormSnapshot): boolean => snapshot.can({ type: 'user.retry' });
export const selectFormError = (snapshot: AddressFormSnapshot): ErrorInfo | null => snapshot.context.error;
/** The address as the server saved it (the machine's output). */
export const selectSaved = (snapshot: AddressFormSnapshot): DeliveryAddress | null => snapshot.context.saved;
