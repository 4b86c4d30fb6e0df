/**
 * Adding the app's token to the member's wallet (EIP-747 wallet_watchAsset), offered where the token moves: the
 * top-up sheet and the withdrawal's receipt. Wallets do not list a token they were not told about, so after a
 * top-up or a paid withdrawal the member would not see it. The wallet answers true once the token is listed; the
 * member may say no (4001, or an answer of false), and a wallet may not support the request (4200, -32601): the
 * member then adds the token by hand from the address the page shows beside the button.
 */
import { assign, fromPromise, setup } from 'xstate';
import { notProvided, toErrorInfo, type ErrorInfo } from '../shared/errorInfo';
import { WalletErrorCodes, WalletErrorNames } from '../shared/errorNames';
import type { TransitionMeta } from '../shared/transitionMeta';

export interface WatchAssetContext {
  /** The wallet's refusal or failure, kept for the page; null once the wallet answered. */
  error: ErrorInfo | null;
}

export type WatchAssetEvent = { type: 'user.add' };

const nameIs = (name: string) => (_: unknown, params: { error: unknown }) => toErrorInfo(params.error).name === name;
const thrown = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

export const watchAssetMachine = setup({
  types: {
    context: {} as WatchAssetContext,
    events: {} as WatchAssetEvent,
    tags: {} as 'busy',
    transitionMeta: {} as TransitionMeta,
  },
  actors: {
    /** Asks the connected wallet to list the token (viem's watchAsset); resolves with the wallet's answer. */
    watchAsset: fromPromise<boolean>(async () => notProvided('watchAsset', 'watchAsset')),
  },
  actions: {
    assignError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    assignDeclined: assign({ error: { name: WalletErrorNames.userRejected, code: WalletErrorCodes.userRejected } }),
    clearError: assign({ error: null }),
  },
  guards: {
    isListed: (_, params: { listed: boolean }) => params.listed,
    isUserRejected: nameIs(WalletErrorNames.userRejected),
    isUnsupported: nameIs(WalletErrorNames.unsupportedMethod),
  },
}).createMachine({
  id: 'watchAsset',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'watchAsset.idle',
      on: { 'user.add': 'adding' },
    },
    adding: {
      description: 'watchAsset.adding',
      tags: 'busy',
      invoke: {
        id: 'watchAsset',
        src: 'watchAsset',
        onDone: [
          { guard: { type: 'isListed', params: ({ event }) => ({ listed: event.output }) }, target: 'added', actions: 'clearError' },
          // A wallet that answers false did not list it: the member closed or refused the prompt.
          { target: 'declined', actions: 'assignDeclined', description: 'watchAsset.adding:done.watchAsset' },
        ],
        onError: [
          {
            guard: { type: 'isUserRejected', params: thrown },
            target: 'declined',
            actions: { type: 'assignError', params: thrown },
            meta: { walletCodes: [WalletErrorCodes.userRejected] },
          },
          {
            guard: { type: 'isUnsupported', params: thrown },
            target: 'unsupported',
            actions: { type: 'assignError', params: thrown },
            meta: { walletCodes: [WalletErrorCodes.unsupportedMethod, WalletErrorCodes.methodNotFound] },
          },
          { target: 'failed', actions: { type: 'assignError', params: thrown } },
        ],
      },
    },
    added: { description: 'watchAsset.added', type: 'final' },
    declined: {
      description: 'watchAsset.declined',
      on: { 'user.add': { target: 'adding', actions: 'clearError' } },
    },
    unsupported: { description: 'watchAsset.unsupported', type: 'final' },
    failed: {
      description: 'watchAsset.failed',
      on: { 'user.add': { target: 'adding', actions: 'clearError' } },
    },
  },
});

export type WatchAssetMachine = typeof watchAssetMachine;
