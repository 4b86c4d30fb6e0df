/**
 * What the address book shows, read from the machine's snapshot: the step, the addresses (the default first, as the
 * server answers), the address an action is about, and what may be done to each (snapshot.can).
 */
import type { SnapshotFrom } from 'xstate';
import type { ErrorInfo } from '../shared/errorInfo';
import type { AddressBookMachine } from './addressBookMachine';
import type { DeliveryAddress } from './buyContract';

type AddressBookSnapshot = SnapshotFrom<AddressBookMachine>;

export type AddressBookView = AddressBookSnapshot['value'];

export const selectAddressBookView = (snapshot: AddressBookSnapshot): AddressBookView => snapshot.value;
export const selectIsBusy = (snapshot: AddressBookSnapshot): boolean => snapshot.hasTag('busy');
export const selectAddresses = (snapshot: AddressBookSnapshot): readonly DeliveryAddress[] => snapshot.context.addresses;
export const selectDefaultAddress = (snapshot: AddressBookSnapshot): DeliveryAddress | null =>
  snapshot.context.addresses.find((address) => address.isDefault) ?? null;
/** The address being made the default or deleted (the confirmation names it). */
export const selectTarget = (snapshot: AddressBookSnapshot): DeliveryAddress | null => snapshot.context.target;
export const selectBookError = (snapshot: AddressBookSnapshot): ErrorInfo | null => snapshot.context.error;
/** The address chosen for the settlement (the machine's output once it ended there). */
export const selectChosenId = (snapshot: AddressBookSnapshot): string | null => snapshot.context.chosenId;

export const selectCanChoose = (snapshot: AddressBookSnapshot, deliveryId: string): boolean => snapshot.can({ type: 'user.choose', deliveryId });
/** False for the default itself: it already is. */
export const selectCanSetDefault = (snapshot: AddressBookSnapshot, deliveryId: string): boolean => snapshot.can({ type: 'user.setDefault', deliveryId });
export const selectCanDelete = (snapshot: AddressBookSnapshot, deliveryId: string): boolean => snapshot.can({ type: 'user.delete', deliveryId });
export const selectCanRetry = (snapshot: AddressBookSnapshot): boolean => snapshot.can({ type: 'user.retry' });
