/**
 * The desk's per-screen actors: a document load (the member app's resource machine, so every read has its
 * loading, error-with-retry and loaded states), one act that answers once, a withdrawal's decision, a held
 * top-up's and an order's shipment. Each lives as long as the component that made it.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import type { SnapshotFrom } from 'xstate';
import { fromPromise } from 'xstate';
import type { ResourceAnswer } from '../../machines/resource/resourceMachine';
import { createHeldTopUpMachine } from '../../machines/ops/heldTopUpMachine';
import type { DecidableTopUp, ReleaseInput, ReturnInput } from '../../machines/ops/heldTopUpMachine';
import { createOpsActionMachine } from '../../machines/ops/opsActionMachine';
import { createOrderShippingMachine } from '../../machines/ops/orderShippingMachine';
import type { RefundInput, ShipInput, ShippableOrder } from '../../machines/ops/orderShippingMachine';
import { createWithdrawalDecisionMachine } from '../../machines/ops/withdrawalDecisionMachine';
import type { DecidableWithdrawal, DecidedWithdrawal, DecideInput } from '../../machines/ops/withdrawalDecisionMachine';
import type { Answer } from '../../machines/shared/answer';
import { provideBuilt } from '../../machines/shared/provideBuilt';
import { useResource } from '../routes/shared/useResource';
import type { OpsEndpointName, OpsQuery, OpsResult } from './api/opsContract';
import { useDesk } from './DeskContext';

/**
 * A read of the desk's API that follows its query (the resource machine): a screen passes the query its address
 * says, so a filter, Back and Forward all read what the address shows. A page's cursor stays the machine's own
 * (`user.changeQuery` from the page buttons), and reading again keeps the query.
 *
 * @example const queue = useDeskRead('opsWithdrawals', { status: 'pending' });
 */
export function useDeskRead<TName extends OpsEndpointName>(name: TName, query: OpsQuery<TName>) {
  const { api } = useDesk();
  const actor = useResource<OpsResult<TName>, OpsQuery<TName>>((input): Promise<ResourceAnswer<OpsResult<TName>>> => api.call(name, { query: input }), query);
  const key = JSON.stringify(query ?? null);
  const followed = useRef(key);
  useEffect(() => {
    if (followed.current === key) return;
    followed.current = key;
    actor.send({ type: 'user.changeQuery', query });
  }, [actor, key, query]);
  return actor;
}

/**
 * One act that answers once (machines/ops/opsActionMachine.ts), made with the screen's call.
 *
 * @example const approve = useDeskAction((request: { ids: string[] }) => api.call('opsWithdrawalsApprove', { body: request }));
 */
export function useDeskAction<TRequest, TResult>(act: (request: TRequest) => Promise<Answer<TResult>>) {
  const [logic] = useState(() =>
    provideBuilt(createOpsActionMachine<TRequest, TResult>(), {
      actors: {
        act: fromPromise<Answer<TResult>, { request: TRequest | null }>(({ input }) =>
          input.request === null ? Promise.resolve({ code: -1, result: null }) : act(input.request),
        ),
      },
    }),
  );
  return useActorRef(logic);
}

/** A withdrawal's decision by the signed-in operator. */
export function useWithdrawalDecision(withdrawal: DecidableWithdrawal, operator: string) {
  const { api } = useDesk();
  const [logic] = useState(() =>
    provideBuilt(createWithdrawalDecisionMachine(), {
      actors: {
        decide: fromPromise<Answer<DecidedWithdrawal>, DecideInput>(({ input }) => api.call('adminWithdrawalDecide', { body: input })),
      },
    }),
  );
  return useActorRef(logic, { input: { withdrawal, operator } });
}

/** A held top-up's release or return. */
export function useHeldTopUp(topUp: DecidableTopUp) {
  const { api } = useDesk();
  const [logic] = useState(() =>
    provideBuilt(createHeldTopUpMachine(), {
      actors: {
        release: fromPromise<Answer<DecidableTopUp>, ReleaseInput>(({ input }) => api.call('opsHeldTopUpRelease', { body: input })),
        giveBack: fromPromise<Answer<DecidableTopUp>, ReturnInput>(({ input }) => api.call('opsHeldTopUpReturn', { body: input })),
      },
    }),
  );
  return useActorRef(logic, { input: { topUp } });
}

/** An order's shipment or cancellation with refund. */
export function useOrderShipping(order: ShippableOrder) {
  const { api } = useDesk();
  const [logic] = useState(() =>
    provideBuilt(createOrderShippingMachine(), {
      actors: {
        ship: fromPromise<Answer<ShippableOrder>, ShipInput>(({ input }) => api.call('opsOrderShip', { body: input })),
        refund: fromPromise<Answer<ShippableOrder>, RefundInput>(({ input }) => api.call('opsOrderCancel', { body: input })),
      },
    }),
  );
  return useActorRef(logic, { input: { order } });
}

/** The signed-in operator (null while signed out). */
export function useOperator() {
  const { session } = useDesk();
  return useSelector(session, (snapshot: SnapshotFrom<typeof session>) => (snapshot.matches('signedIn') ? snapshot.context.operator : null));
}
