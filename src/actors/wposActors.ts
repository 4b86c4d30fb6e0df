/**
 * The real side of the WPOS flows' machines: transferWpos and flashExchange through the app's API client (which turns
 * a 1002 answer into the auth machine's server.tokenExpired by itself).
 */
import { fromPromise } from 'xstate';
import type { ExchangeAnswer, SubmitExchangeInput } from '../../machines/exchange/exchangeMachine';
import type { SubmitTransferInput, TransferAnswer } from '../../machines/wpos/transferMachine';
import type { ApiClient } from '../api/client';
import { flashExchange, transferWpos } from '../api/screenCalls';

/**
 * The submit actor for transferMachine.provide().
 *
 * @param api - the app's API client
 * @returns a promise actor resolving with transferWpos's envelope, never rejecting
 * @example
 * transferMachine.provide({ actors: { submit: submitTransfer(api) } });
 */
export function submitTransfer(api: ApiClient) {
  return fromPromise<TransferAnswer, SubmitTransferInput>(({ input }) => transferWpos(api, { ...input.body, requestId: input.requestId }));
}

/**
 * The submit actor for exchangeMachine.provide().
 *
 * @param api - the app's API client
 * @returns a promise actor resolving with flashExchange's envelope, never rejecting
 * @example
 * exchangeMachine.provide({ actors: { submit: submitExchange(api) } });
 */
export function submitExchange(api: ApiClient) {
  return fromPromise<ExchangeAnswer, SubmitExchangeInput>(({ input }) => flashExchange(api, { ...input.body, requestId: input.requestId }));
}
