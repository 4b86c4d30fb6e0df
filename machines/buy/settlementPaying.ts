/**
 * The settlement's paying state: orderSettle with the confirmation's request id, and what each answer means. Every
 * answer after which only the server knows what it did keeps the id for the retry (ADR 0011); a refusal nothing
 * moved for either sends the member back to confirm new figures (3001, 3002, 3003) or ends in a reason (4004).
 */
import { ApiCode } from '../../api-schema/codes';
import { Decisions } from '../shared/transitionMeta';
import { codeIn } from './buyContract';
import type { SettleAnswer, SettleInput, SettlementContext } from './settlementTypes';

/** The decision record behind every transition that keeps or drops the request id. */
export const requestIdDecision = { decision: Decisions.withdrawalRequestId };

const reconfirmCodes = [ApiCode.insufficientBalance, ApiCode.amountOutOfLimits, ApiCode.requestIdReused];
const settled = ({ event }: { event: { output: SettleAnswer } }) => ({ code: event.output.code });

/** The guards on orderSettle's answer, for the machine's setup. */
export const settleGuards = {
  isOk: codeIn(ApiCode.ok),
  isSignedOutAnswer: codeIn(ApiCode.notSignedIn),
  isFixedByConfirmingAgain: codeIn(...reconfirmCodes),
  isGone: codeIn(ApiCode.notFound),
};

export const payingState = {
  description: 'settlement.paying',
  tags: 'busy' as const,
  invoke: {
    id: 'settle',
    src: 'settle' as const,
    input: ({ context }: { context: SettlementContext }): SettleInput => ({
      body: { goodsId: context.goodsId ?? '', quantity: context.quantity, deliveryId: context.deliveryId ?? '' },
      requestId: context.requestId ?? '',
    }),
    onDone: [
      {
        guard: { type: 'isOk' as const, params: settled },
        target: 'paid' as const,
        actions: { type: 'assignResult' as const, params: ({ event }: { event: { output: SettleAnswer } }) => ({ result: event.output.result }) },
      },
      {
        guard: { type: 'isSignedOutAnswer' as const, params: settled },
        target: 'sessionEnded' as const,
        actions: { type: 'assignFailure' as const, params: settled },
        meta: { apiCodes: [ApiCode.notSignedIn] },
      },
      {
        guard: { type: 'isFixedByConfirmingAgain' as const, params: settled },
        target: 'refreshing' as const,
        actions: [{ type: 'assignFailure' as const, params: settled }, 'dropRequest' as const],
        meta: { ...requestIdDecision, apiCodes: reconfirmCodes },
        description: 'settlement.paying:done.settle[isFixedByConfirmingAgain]',
      },
      {
        guard: { type: 'isGone' as const, params: settled },
        target: 'failed' as const,
        actions: { type: 'assignRefusal' as const, params: settled },
        meta: { apiCodes: [ApiCode.notFound] },
        description: 'settlement.paying:done.settle[isGone]',
      },
      {
        target: 'failed' as const,
        actions: { type: 'assignFailure' as const, params: settled },
        meta: requestIdDecision,
        description: 'settlement.paying:done.settle',
      },
    ],
    onError: {
      target: 'failed' as const,
      actions: { type: 'assignThrown' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
    },
  },
  on: { 'user.cancel': { target: 'interrupted' as const, meta: requestIdDecision, description: 'settlement.paying:user.cancel' } },
};
