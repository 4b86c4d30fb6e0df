/**
 * The settlement machine with fake actors that answer only when the test says, recording what each call was given.
 */
import { createActor, fromPromise } from 'xstate';
import { buyRequestId, checkoutOf, settlementInput } from '../../../scripts/machineGraph/buy.model';
import type { CheckoutLoad } from '../../../machines/buy/checkout';
import { settlementMachine, type LoadCheckoutInput, type SettleAnswer, type SettleInput, type SettlementInput } from '../../../machines/buy/settlementMachine';
import { flushPromises } from '../../../scripts/machineGraph/pathWalker';

/** Starts a settlement; `load` and `settle` answer the newest call. */
export function startSettlement(input: SettlementInput = settlementInput) {
  const loads: LoadCheckoutInput[] = [];
  const settles: SettleInput[] = [];
  const pendingLoads: ((load: CheckoutLoad) => void)[] = [];
  const pendingSettles: ((answer: SettleAnswer) => void)[] = [];
  let paidReports = 0;
  const machine = settlementMachine.provide({
    actors: {
      loadCheckout: fromPromise<CheckoutLoad, LoadCheckoutInput>(({ input: asked }) => {
        loads.push(asked);
        return new Promise((resolve) => pendingLoads.push(resolve));
      }),
      settle: fromPromise<SettleAnswer, SettleInput>(({ input: sent }) => {
        settles.push(sent);
        return new Promise((resolve) => pendingSettles.push(resolve));
      }),
    },
    actions: { reportPaid: () => void (paidReports += 1) },
  });
  const actor = createActor(machine, { input }).start();
  return {
    actor,
    loads,
    settles,
    paidReports: () => paidReports,
    snapshot: () => actor.getSnapshot(),
    load: async (load: CheckoutLoad) => {
      pendingLoads.pop()?.(load);
      await flushPromises();
    },
    settle: async (code: number) => {
      pendingSettles.pop()?.({ code, result: code === 0 ? { orderId: 'o7', amount: '25', status: 'paid' } : null });
      await flushPromises();
    },
  };
}

/** Loaded, two units chosen, confirmed with `requestId`, and the figures read again unchanged: now paying. */
export async function payingTwo(flow: SettlementFlow, requestId = buyRequestId) {
  await flow.load(checkoutOf());
  flow.actor.send({ type: 'quantity.inc' });
  flow.actor.send({ type: 'user.confirm', requestId });
  await flow.load(checkoutOf());
}

export type SettlementFlow = ReturnType<typeof startSettlement>;
