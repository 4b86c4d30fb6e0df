/**
 * The real side of the buy flow's machines: the address book's and form's calls through the app's API client
 * (which turns a 1002 answer into the auth machine's server.tokenExpired by itself).
 */
import { fromPromise } from 'xstate';
import type { SaveAddressAnswer, SaveAddressInput } from '../../machines/buy/addressShape';
import type { ApiClient } from '../api/client';
import type { AddressListAnswer, DeleteAddressAnswer } from '../../machines/buy/addressBookMachine';
import type { CheckoutLoad } from '../../machines/buy/checkout';
import type { LoadCheckoutInput, SettleAnswer, SettleInput } from '../../machines/buy/settlementTypes';
import { addAddress, deleteAddress, editAddress, fetchAddresses, fetchGoods, fetchMeInfo, settleOrder } from '../api/screenCalls';

/**
 * The saveAddress actor for addressFormMachine.provide(): deliveryAdd without a deliveryId, deliveryEdit with one.
 * The client replaces a refusal's message with its translation, so a 1001 names no field here (the form's own
 * checks are the server's, api-schema/address.ts, so the server refusing a field the form passed is not expected).
 *
 * @param api - the app's API client
 * @returns a promise actor resolving with the envelope, never rejecting
 * @example
 * addressFormMachine.provide({ actors: { saveAddress: saveAddress(api) } });
 */
export function saveAddress(api: ApiClient) {
  return fromPromise<SaveAddressAnswer, SaveAddressInput>(async ({ input }) => {
    const answer =
      input.deliveryId === null
        ? await addAddress(api, input.requestId === null ? input.fields : { ...input.fields, requestId: input.requestId })
        : await editAddress(api, { ...input.fields, deliveryId: input.deliveryId });
    return { ...answer, field: null };
  });
}

/**
 * The address book's actors for addressBookMachine.provide(): deliveryList, deliveryEdit (make default), deliveryDelete.
 *
 * @param api - the app's API client
 * @returns the three promise actors, each resolving with its envelope
 * @example
 * addressBookMachine.provide({ actors: addressBookActors(api) });
 */
export function addressBookActors(api: ApiClient) {
  return {
    fetchAddresses: fromPromise<AddressListAnswer>(() => fetchAddresses(api)),
    saveAddress: saveAddress(api),
    deleteAddress: fromPromise<DeleteAddressAnswer, { deliveryId: string }>(({ input }) => deleteAddress(api, { deliveryId: input.deliveryId })),
  };
}

/**
 * The settlement's actors for settlementMachine.provide(): goods, addresses and the credit balance read at once
 * (meInfo every time: the session's stored balance may be from before a top-up), and orderSettle with the
 * confirmation's request id.
 *
 * @param api - the app's API client
 * @returns the two promise actors, each resolving with envelopes
 * @example
 * settlementMachine.provide({ actors: settlementActors(api, lang) });
 */
export function settlementActors(api: ApiClient, lang: 'zh' | 'en') {
  return {
    loadCheckout: fromPromise<CheckoutLoad, LoadCheckoutInput>(async ({ input }) => {
      const [goods, addresses, member] = await Promise.all([
        fetchGoods(api, { id: input.goodsId, lang }),
        fetchAddresses(api),
        fetchMeInfo(api),
      ]);
      return { goods, addresses, balance: { code: member.code, result: member.result?.creditBalance ?? null } };
    }),
    settle: fromPromise<SettleAnswer, SettleInput>(({ input }) => settleOrder(api, { ...input.body, requestId: input.requestId })),
  };
}
