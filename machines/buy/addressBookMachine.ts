/**
 * The shipping address book (spec: /buy/shipping-address; docs/API.md "Buy flow and shipping addresses"): the member's
 * addresses, the default first as the server answers them. The member chooses one for the settlement (the machine
 * ends with its deliveryId as output), makes another the default (an edit with `isDefault: true`; the server turns
 * the old one off), or deletes one after confirming. After each change the list is read again, since the server
 * decides the default and the order. Adding and editing are the address form's (addressFormMachine).
 */
import { assign, fromPromise, setup } from 'xstate';
import { ApiCode } from '../../api-schema/codes';
import type { Answer } from '../shared/answer';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';
import { defaultEditOf, type SaveAddressAnswer, type SaveAddressInput } from './addressShape';
import { apiError, codeIn, isAnswered, type AddressList, type DeliveryAddress } from './buyContract';

export interface AddressBookContext {
  addresses: readonly DeliveryAddress[];
  /** The address the current action (set default, delete) is about. */
  target: DeliveryAddress | null;
  /** The address chosen for the settlement: the machine's output. */
  chosenId: string | null;
  error: ErrorInfo | null;
}

export type AddressBookEvent =
  | { type: 'user.retry' }
  | { type: 'user.refresh' }
  | { type: 'user.choose'; deliveryId: string }
  | { type: 'user.setDefault'; deliveryId: string }
  | { type: 'user.delete'; deliveryId: string }
  | { type: 'user.confirm' }
  | { type: 'user.cancel' };

export type AddressListAnswer = Answer<AddressList>;
export type DeleteAddressAnswer = Answer<unknown>;

const answered = ({ event }: { event: { output: Answer<unknown> } }) => ({ code: event.output.code });
const signedOut = () => ({
  guard: { type: 'isSignedOutAnswer' as const, params: answered },
  target: 'sessionEnded' as const,
  actions: { type: 'assignFailure' as const, params: answered },
  meta: { apiCodes: [ApiCode.notSignedIn] },
});
const thrown = (target: 'loadFailed' | 'deleteFailed' | 'setDefaultFailed') => ({
  target,
  actions: { type: 'assignThrown' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
});

export const addressBookMachine = setup({
  types: {
    context: {} as AddressBookContext,
    events: {} as AddressBookEvent,
    output: {} as { deliveryId: string | null },
  },
  actors: {
    /** deliveryList: the member's addresses, the default first. */
    fetchAddresses: fromPromise<AddressListAnswer>(async () => notProvided('addressBook', 'fetchAddresses')),
    /** The address form's saveAddress: here deliveryEdit with the address as it is and `isDefault: true`. */
    saveAddress: fromPromise<SaveAddressAnswer, SaveAddressInput>(async () => notProvided('addressBook', 'saveAddress')),
    /** deliveryDelete. */
    deleteAddress: fromPromise<DeleteAddressAnswer, { deliveryId: string }>(async () => notProvided('addressBook', 'deleteAddress')),
  },
  actions: {
    assignList: assign((_, params: { answer: AddressListAnswer }) => ({ addresses: isAnswered(params.answer) ? params.answer.result.list : [] })),
    assignTarget: assign(({ context }, params: { deliveryId: string }) => ({
      target: context.addresses.find((address) => address.deliveryId === params.deliveryId) ?? null,
      error: null,
    })),
    assignChosen: assign((_, params: { deliveryId: string }) => ({ chosenId: params.deliveryId })),
    clearTarget: assign({ target: null }),
    assignFailure: assign((_, params: { code: number }) => ({ error: apiError(params.code) })),
    assignThrown: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    clearError: assign({ error: null }),
  },
  guards: {
    isSignedOutAnswer: codeIn(ApiCode.notSignedIn),
    isListFailure: (_, params: { answer: AddressListAnswer }) => !isAnswered(params.answer),
    isEmptyList: (_, params: { answer: AddressListAnswer }) => (params.answer.result?.list.length ?? 0) === 0,
    isListed: ({ context }, params: { deliveryId: string }) => context.addresses.some((address) => address.deliveryId === params.deliveryId),
    isOtherThanDefault: ({ context }, params: { deliveryId: string }) =>
      context.addresses.some((address) => address.deliveryId === params.deliveryId && !address.isDefault),
    isOk: codeIn(ApiCode.ok),
    isGone: codeIn(ApiCode.notFound),
    isDeletedOrGone: codeIn(ApiCode.ok, ApiCode.notFound),
  },
}).createMachine({
  id: 'addressBook',
  context: { addresses: [], target: null, chosenId: null, error: null },
  output: ({ context }) => ({ deliveryId: context.chosenId }),
  initial: 'loading',
  states: {
    loading: {
      description: 'addressBook.loading',
      tags: 'busy',
      invoke: {
        id: 'fetchAddresses',
        src: 'fetchAddresses',
        onDone: [
          signedOut(),
          {
            guard: { type: 'isListFailure', params: ({ event }) => ({ answer: event.output }) },
            target: 'loadFailed',
            actions: { type: 'assignFailure', params: answered },
          },
          {
            guard: { type: 'isEmptyList', params: ({ event }) => ({ answer: event.output }) },
            target: 'empty',
            actions: [{ type: 'assignList', params: ({ event }) => ({ answer: event.output }) }, 'clearTarget'],
          },
          { target: 'loaded', actions: [{ type: 'assignList', params: ({ event }) => ({ answer: event.output }) }, 'clearTarget'] },
        ],
        onError: thrown('loadFailed'),
      },
    },
    loadFailed: { description: 'addressBook.loadFailed', on: { 'user.retry': { target: 'loading', actions: 'clearError' } } },
    empty: { description: 'addressBook.empty', on: { 'user.refresh': { target: 'loading', actions: 'clearError' } } },
    loaded: {
      description: 'addressBook.loaded',
      on: {
        'user.refresh': { target: 'loading', actions: 'clearError' },
        'user.choose': {
          guard: { type: 'isListed', params: ({ event }) => ({ deliveryId: event.deliveryId }) },
          target: 'chosen',
          actions: { type: 'assignChosen', params: ({ event }) => ({ deliveryId: event.deliveryId }) },
        },
        'user.setDefault': {
          guard: { type: 'isOtherThanDefault', params: ({ event }) => ({ deliveryId: event.deliveryId }) },
          target: 'settingDefault',
          actions: { type: 'assignTarget', params: ({ event }) => ({ deliveryId: event.deliveryId }) },
        },
        'user.delete': {
          guard: { type: 'isListed', params: ({ event }) => ({ deliveryId: event.deliveryId }) },
          target: 'confirmingDelete',
          actions: { type: 'assignTarget', params: ({ event }) => ({ deliveryId: event.deliveryId }) },
        },
      },
    },
    confirmingDelete: {
      description: 'addressBook.confirmingDelete',
      on: { 'user.confirm': 'deleting', 'user.cancel': { target: 'loaded', actions: 'clearTarget' } },
    },
    deleting: {
      description: 'addressBook.deleting',
      tags: 'busy',
      invoke: {
        id: 'deleteAddress',
        src: 'deleteAddress',
        input: ({ context }) => ({ deliveryId: context.target?.deliveryId ?? '' }),
        onDone: [
          signedOut(),
          { guard: { type: 'isDeletedOrGone', params: answered }, target: 'loading', description: 'addressBook.deleting:done.deleteAddress[isDeletedOrGone]' },
          { target: 'deleteFailed', actions: { type: 'assignFailure', params: answered } },
        ],
        onError: thrown('deleteFailed'),
      },
    },
    deleteFailed: {
      description: 'addressBook.deleteFailed',
      on: { 'user.retry': { target: 'deleting', actions: 'clearError' }, 'user.cancel': { target: 'loaded', actions: ['clearTarget', 'clearError'] } },
    },
    settingDefault: {
      description: 'addressBook.settingDefault',
      tags: 'busy',
      invoke: {
        id: 'makeDefault',
        src: 'saveAddress',
        input: ({ context }) => defaultEditOf(context.target),
        onDone: [
          signedOut(),
          { guard: { type: 'isOk', params: answered }, target: 'loading' },
          {
            guard: { type: 'isGone', params: answered },
            target: 'loading',
            actions: { type: 'assignFailure', params: answered },
            meta: { apiCodes: [ApiCode.notFound] },
            description: 'addressBook.settingDefault:done.makeDefault[isGone]',
          },
          { target: 'setDefaultFailed', actions: { type: 'assignFailure', params: answered } },
        ],
        onError: thrown('setDefaultFailed'),
      },
    },
    setDefaultFailed: {
      description: 'addressBook.setDefaultFailed',
      on: { 'user.retry': { target: 'settingDefault', actions: 'clearError' }, 'user.cancel': { target: 'loaded', actions: ['clearTarget', 'clearError'] } },
    },
    chosen: { type: 'final', description: 'addressBook.chosen' },
    sessionEnded: { type: 'final', description: 'shared.sessionEnded' },
  },
});

export type AddressBookMachine = typeof addressBookMachine;
