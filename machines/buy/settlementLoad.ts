/**
 * What the settlement does with an answer of loadCheckout (goods, addresses, balance): the same reading for the
 * first load, the check before paying and the reload after a refusal, each with its own targets. 1002 anywhere ends
 * the flow; goods the server does not know end at "not found"; any other failure keeps nothing new; otherwise the
 * figures are taken, and the check before paying goes on to pay only when nothing the member saw moved.
 */
import { ApiCode } from '../../api-schema/codes';
import type { Answer } from '../shared/answer';
import { applyLoad, blockersOf, type CheckoutLoad } from './checkout';
import type { SettlementContext } from './settlementTypes';

/** Where one load's outcomes lead; `unchanged` only where the load is the check before paying. */
export interface LoadTargets {
  gone: 'goodsNotFound';
  failed: 'loadFailed' | 'ready';
  unchanged: 'paying' | null;
  loaded: 'ready';
}

type GuardArgs = { context: SettlementContext };
type LoadParams = { load: CheckoutLoad };
type LoadDone = { event: { output: CheckoutLoad } };

const answersOf = (load: CheckoutLoad): Answer<unknown>[] => [load.goods, load.addresses, load.balance];
const failing = (answer: Answer<unknown>) => answer.code !== ApiCode.ok || answer.result === null;

/** The code to show for a failed load: the first failing call's, -1 when none says more. */
export function failureCodeOf(load: CheckoutLoad): number {
  return answersOf(load).find(failing)?.code ?? ApiCode.clientFailure;
}

const guards = {
  isSignedOutLoad: (_: GuardArgs, params: LoadParams) => answersOf(params.load).some((answer) => answer.code === ApiCode.notSignedIn),
  isGoodsGone: (_: GuardArgs, params: LoadParams) => params.load.goods.code === ApiCode.notFound || params.load.goods.code === ApiCode.invalidParameters,
  isLoadFailure: (_: GuardArgs, params: LoadParams) => answersOf(params.load).some(failing),
  /** Price, quantity and address as the member confirmed them, and the order still payable. */
  isCheckoutUnchanged: ({ context }: GuardArgs, params: LoadParams) => {
    const next = applyLoad(context, params.load);
    return !next.changed && blockersOf(next).length === 0;
  },
};

const load = ({ event }: LoadDone) => ({ load: event.output });

function transitions(targets: LoadTargets) {
  const keep = targets.unchanged
    ? [
        {
          guard: { type: 'isCheckoutUnchanged' as const, params: load },
          target: targets.unchanged,
          actions: { type: 'assignLoad' as const, params: load },
          description: 'settlement.checking:done.checkBeforePaying[isCheckoutUnchanged]',
        },
      ]
    : [];
  return {
    onDone: [
      {
        guard: { type: 'isSignedOutLoad' as const, params: load },
        target: 'sessionEnded' as const,
        actions: { type: 'assignFailure' as const, params: { code: ApiCode.notSignedIn } },
        meta: { apiCodes: [ApiCode.notSignedIn] },
      },
      {
        guard: { type: 'isGoodsGone' as const, params: load },
        target: targets.gone,
        actions: ['assignGoodsGone' as const, { type: 'assignFailure' as const, params: ({ event }: LoadDone) => ({ code: event.output.goods.code }) }],
        meta: { apiCodes: [ApiCode.notFound, ApiCode.invalidParameters] },
      },
      {
        guard: { type: 'isLoadFailure' as const, params: load },
        target: targets.failed,
        actions: ['dropRequest' as const, { type: 'assignFailure' as const, params: ({ event }: LoadDone) => ({ code: failureCodeOf(event.output) }) }],
      },
      ...keep,
      {
        target: targets.loaded,
        actions: ['dropRequest' as const, { type: 'assignLoad' as const, params: load }],
        description: targets.unchanged ? 'settlement.checking:done.checkBeforePaying' : undefined,
      },
    ],
    onError: {
      target: targets.failed,
      actions: ['dropRequest' as const, { type: 'assignThrown' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) }],
    },
  };
}

/** The guards to spread into the machine's setup, and the transitions of one load state. */
export const loadOutcomes = { guards, transitions };
