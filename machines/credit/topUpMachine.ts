/**
 * Topping up credit from the wallet (docs/API.md "Credit on chain"): the member's token balance is read from
 * the chain, the member types an amount, the wallet sends the token to the treasury, and the server's topUp call
 * follows the transaction until it is credited. The hash is kept in the page's storage from the moment the wallet
 * answers, so a reload or a closed tab resumes the wait (the machine then starts at `confirming`). A transaction the
 * member sped up in the wallet is followed under its new hash; one they cancelled ends as replaced.
 *
 * Everything the member sees is here: the wallet's refusals by their codes (4001, -32002, 4100, not enough of the
 * token or of gas, another chain), the blocks on top (n of N, from the server), and how long a transaction nobody
 * has seen is waited for.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { TopUpStatus } from '../../api-schema/member';
import { checkAmount, normalizeAmount, type AmountError } from '../shared/amount';
import { notProvided, toErrorInfo, type ErrorInfo } from '../shared/errorInfo';
import { WalletErrorCodes } from '../shared/errorNames';
import { TransactionErrorNames } from './transactionErrors';
import type { TransitionMeta } from '../shared/transitionMeta';

export interface TopUpInput {
  /** A top-up sent before (a reload, a closed tab): its hash, kept in storage; the machine resumes its wait. */
  pendingHash: string | null;
  /** Looks at a transaction nobody has seen before the wait ends; MAX_UNSEEN_CHECKS unless said (the tests say 2). */
  maxUnseenChecks?: number;
}

/** What the check actor answers: the server's topUp status, and a replacement the wallet made, if any. */
export interface TopUpCheck {
  status: TopUpStatus;
  confirmations: number;
  required: number;
  amount?: string | undefined;
  /** The member sped the transaction up (`repriced`, follow `hash`) or cancelled it in the wallet. */
  replacement?: { reason: 'repriced' | 'cancelled'; hash: string } | undefined;
}

export interface TopUpContext {
  /** The member's token balance in the wallet (decimal string), once read. */
  balance: string | null;
  amount: string;
  amountError: AmountError | null;
  txHash: string | null;
  confirmations: number;
  required: number;
  /** What was credited. */
  credited: string | null;
  /** Checks that found no transaction yet, since the last one that did. */
  unseenChecks: number;
  maxUnseenChecks: number;
  error: ErrorInfo | null;
}

export type TopUpEvent =
  | { type: 'field.change'; field: 'amount'; value: string }
  | { type: 'user.submit' }
  | { type: 'user.retry' }
  | { type: 'user.restart' };

/** Checks of a transaction nobody has seen before the wait ends (one every checkInterval: about two minutes). */
export const MAX_UNSEEN_CHECKS = 40;

const walletCodeIs = (code: number) => (_: unknown, params: { error: unknown }) => toErrorInfo(params.error).code === code;
const walletNameIs = (name: string) => (_: unknown, params: { error: unknown }) => toErrorInfo(params.error).name === name;
const thrown = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

export const topUpMachine = setup({
  types: {
    context: {} as TopUpContext,
    events: {} as TopUpEvent,
    input: {} as TopUpInput,
    transitionMeta: {} as TransitionMeta,
  },
  actors: {
    /** The member's token balance in the wallet, from the chain, as a decimal string. */
    readBalance: fromPromise<string>(async () => notProvided('topUp', 'readBalance')),
    /** Asks the wallet to send `amount` of the token to the treasury; resolves with the transaction hash. */
    sendTransfer: fromPromise<string, { amount: string }>(async () => notProvided('topUp', 'sendTransfer')),
    /** Asks the server (topUp) and the chain (a replacement) about the transaction. */
    checkTopUp: fromPromise<TopUpCheck, { txHash: string }>(async () => notProvided('topUp', 'checkTopUp')),
  },
  actions: {
    assignBalance: assign((_, params: { balance: string }) => ({ balance: params.balance, error: null })),
    assignAmount: assign(({ context }, params: { value: string }) => ({
      amount: params.value,
      amountError: checkAmount(params.value, { min: '0.000001', max: context.balance ?? '0', balance: context.balance ?? '0' }),
      error: null,
    })),
    assignHash: assign((_, params: { txHash: string }) => ({ txHash: params.txHash, confirmations: 0, unseenChecks: 0, error: null })),
    assignCheck: assign(({ context }, params: { check: TopUpCheck }) => ({
      confirmations: params.check.confirmations,
      required: params.check.required,
      unseenChecks: params.check.status === 'pending' ? context.unseenChecks + 1 : 0,
      error: null,
    })),
    assignCredited: assign((_, params: { check: TopUpCheck }) => ({ credited: params.check.amount ?? null, confirmations: params.check.confirmations, error: null })),
    assignError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    assignUnseenCheck: assign(({ context }, params: { error: unknown }) => ({ unseenChecks: context.unseenChecks + 1, error: toErrorInfo(params.error) })),
    resetForNewTopUp: assign({ txHash: null, confirmations: 0, credited: null, unseenChecks: 0, error: null, amount: '', amountError: null }),
    storePendingHash: (_, _params: { txHash: string }) => {
      // Provided by the app: the hash goes to storage (PENDING_TOP_UP) so a reload resumes it.
    },
    clearPendingHash: () => {
      // Provided by the app: the stored hash is removed.
    },
    reportCredited: () => {
      // Provided by the app: the balance and the records are read again.
    },
  },
  guards: {
    hasPendingHash: ({ context }) => context.txHash !== null,
    isAmountValid: ({ context }) => context.balance !== null && checkAmount(context.amount, { min: '0.000001', max: context.balance, balance: context.balance }) === null,
    isUserRejected: walletCodeIs(WalletErrorCodes.userRejected),
    isRequestPending: walletCodeIs(WalletErrorCodes.requestPending),
    isCredited: (_, params: { check: TopUpCheck }) => params.check.status === 'credited',
    isInvalid: (_, params: { check: TopUpCheck }) => params.check.status === 'invalid',
    isCancelled: (_, params: { check: TopUpCheck }) => params.check.replacement?.reason === 'cancelled',
    isRepriced: (_, params: { check: TopUpCheck }) => params.check.replacement?.reason === 'repriced',
    isLongUnseen: ({ context }, params: { check: TopUpCheck }) => params.check.status === 'pending' && context.unseenChecks + 1 >= context.maxUnseenChecks,
    isLongUnreachable: ({ context }) => context.unseenChecks + 1 >= context.maxUnseenChecks,
    isInsufficientFunds: walletNameIs(TransactionErrorNames.insufficientFunds),
  },
  delays: {
    /** Between two looks at the transaction: about a block on BNB Smart Chain. */
    checkInterval: 3_000,
  },
}).createMachine({
  id: 'topUp',
  context: ({ input }) => ({
    balance: null,
    amount: '',
    amountError: null,
    txHash: input.pendingHash,
    confirmations: 0,
    required: 0,
    credited: null,
    unseenChecks: 0,
    maxUnseenChecks: input.maxUnseenChecks ?? MAX_UNSEEN_CHECKS,
    error: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      description: 'topUp.starting',
      always: [
        { guard: 'hasPendingHash', target: 'confirming', description: 'topUp.starting:always[hasPendingHash]' },
        { target: 'preparing' },
      ],
    },
    preparing: {
      description: 'topUp.preparing',
      tags: 'busy',
      invoke: {
        id: 'readBalance',
        src: 'readBalance',
        onDone: { target: 'editing', actions: { type: 'assignBalance', params: ({ event }) => ({ balance: event.output }) } },
        onError: { target: 'unavailable', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    unavailable: {
      description: 'topUp.unavailable',
      on: { 'user.retry': 'preparing' },
    },
    editing: {
      description: 'topUp.editing',
      on: {
        'field.change': { actions: { type: 'assignAmount', params: ({ event }) => ({ value: event.value }) } },
        'user.submit': { guard: 'isAmountValid', target: 'awaitingWallet', description: 'topUp.editing:user.submit[isAmountValid]' },
      },
    },
    awaitingWallet: {
      description: 'topUp.awaitingWallet',
      tags: 'busy',
      invoke: {
        id: 'sendTransfer',
        src: 'sendTransfer',
        input: ({ context }) => ({ amount: normalizeAmount(context.amount) ?? context.amount }),
        onDone: {
          target: 'confirming',
          actions: [
            { type: 'assignHash', params: ({ event }) => ({ txHash: event.output }) },
            { type: 'storePendingHash', params: ({ event }) => ({ txHash: event.output }) },
          ],
          description: 'topUp.awaitingWallet:done.sendTransfer',
        },
        onError: [
          {
            guard: { type: 'isUserRejected', params: thrown },
            target: 'editing',
            actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
            meta: { walletCodes: [WalletErrorCodes.userRejected] },
            description: 'topUp.awaitingWallet:error.sendTransfer[isUserRejected]',
          },
          {
            guard: { type: 'isRequestPending', params: thrown },
            target: 'walletBusy',
            actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
            meta: { walletCodes: [WalletErrorCodes.requestPending] },
            description: 'topUp.awaitingWallet:error.sendTransfer[isRequestPending]',
          },
          {
            guard: { type: 'isInsufficientFunds', params: thrown },
            target: 'editing',
            actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
            description: 'topUp.awaitingWallet:error.sendTransfer[isInsufficientFunds]',
          },
          {
            target: 'editing',
            actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
            meta: { walletCodes: [WalletErrorCodes.unauthorized] },
            description: 'topUp.awaitingWallet:error.sendTransfer',
          },
        ],
      },
    },
    walletBusy: {
      description: 'topUp.walletBusy',
      on: { 'user.retry': 'awaitingWallet' },
    },
    confirming: {
      description: 'topUp.confirming',
      tags: 'waiting',
      invoke: {
        id: 'checkTopUp',
        src: 'checkTopUp',
        input: ({ context }) => ({ txHash: context.txHash ?? '' }),
        onDone: [
          {
            guard: { type: 'isCredited', params: ({ event }) => ({ check: event.output }) },
            target: 'credited',
            actions: [{ type: 'assignCredited', params: ({ event }) => ({ check: event.output }) }, 'clearPendingHash'],
          },
          {
            guard: { type: 'isInvalid', params: ({ event }) => ({ check: event.output }) },
            target: 'failed',
            actions: 'clearPendingHash',
            description: 'topUp.confirming:done.checkTopUp[isInvalid]',
          },
          {
            guard: { type: 'isCancelled', params: ({ event }) => ({ check: event.output }) },
            target: 'replaced',
            actions: 'clearPendingHash',
            description: 'topUp.confirming:done.checkTopUp[isCancelled]',
          },
          {
            guard: { type: 'isRepriced', params: ({ event }) => ({ check: event.output }) },
            target: 'waitingForBlocks',
            actions: [
              { type: 'assignHash', params: ({ event }) => ({ txHash: event.output.replacement?.hash ?? '' }) },
              { type: 'storePendingHash', params: ({ event }) => ({ txHash: event.output.replacement?.hash ?? '' }) },
            ],
            description: 'topUp.confirming:done.checkTopUp[isRepriced]',
          },
          {
            guard: { type: 'isLongUnseen', params: ({ event }) => ({ check: event.output }) },
            target: 'notFound',
            description: 'topUp.confirming:done.checkTopUp[isLongUnseen]',
          },
          {
            target: 'waitingForBlocks',
            actions: { type: 'assignCheck', params: ({ event }) => ({ check: event.output }) },
            description: 'topUp.confirming:done.checkTopUp',
          },
        ],
        onError: [
          { guard: 'isLongUnreachable', target: 'notFound', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) }, description: 'topUp.confirming:error.checkTopUp[isLongUnreachable]' },
          {
            target: 'waitingForBlocks',
            actions: { type: 'assignUnseenCheck', params: ({ event }) => ({ error: event.error }) },
            description: 'topUp.confirming:error.checkTopUp',
          },
        ],
      },
    },
    waitingForBlocks: {
      description: 'topUp.waitingForBlocks',
      tags: 'waiting',
      after: { checkInterval: 'confirming' },
    },
    notFound: {
      description: 'topUp.notFound',
      on: {
        'user.retry': { target: 'confirming', description: 'topUp.notFound:user.retry', actions: assign({ unseenChecks: 0 }) },
        'user.restart': { target: 'preparing', actions: ['clearPendingHash', 'resetForNewTopUp'] },
      },
    },
    failed: {
      description: 'topUp.failed',
      on: { 'user.restart': { target: 'preparing', actions: 'resetForNewTopUp' } },
    },
    replaced: {
      description: 'topUp.replaced',
      on: { 'user.restart': { target: 'preparing', actions: 'resetForNewTopUp' } },
    },
    credited: {
      type: 'final',
      entry: 'reportCredited',
      description: 'topUp.credited',
    },
  },
});

export type TopUpMachine = typeof topUpMachine;
