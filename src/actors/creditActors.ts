/**
 * The real side of the withdraw machine: POST withdrawCredit through the app's API client (which turns a 1002
 * answer into the auth machine's server.tokenExpired by itself).
 */
import { fromPromise } from 'xstate';
import type { SubmitWithdrawalInput, WithdrawAnswer } from '../../machines/credit/withdrawMachine';
import type { ApiClient } from '../api/client';
import { withdrawCredit } from '../api/screenCalls';

/**
 * The submitWithdrawal actor for withdrawMachine.provide().
 *
 * @param api - the app's API client (useRootActors().api)
 * @returns a promise actor that resolves with withdrawCredit's envelope and never rejects
 * @example
 * withdrawMachine.provide({ actors: { submit: submitWithdrawal(api) } });
 */
export function submitWithdrawal(api: ApiClient) {
  return fromPromise<WithdrawAnswer, SubmitWithdrawalInput>(({ input }) => withdrawCredit(api, { amount: input.body.amount, requestId: input.requestId }));
}
