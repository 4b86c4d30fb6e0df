/**
 * The desk's per-screen actors: a document load (the member app's resource machine, so every read has its
 * loading, error-with-retry and loaded states), one act that answers once, and one item's decision (a withdrawal,
 * a held top-up, an order). Each lives as long as the component that made it.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import type { SnapshotFrom } from 'xstate';
import { fromPromise } from 'xstate';
import type { ResourceAnswer } from '../../machines/resource/resourceMachine';
import { createOpsActionMachine, noAnswer, requestOfForm } from '../../machines/ops/opsActionMachine';
import type { ActSubject, OpsAct } from '../../machines/ops/opsActionMachine';
import type { Answer } from '../../machines/shared/answer';
import type { createDeskDecisionMachine, DecideRequest } from '../../machines/shared/deskDecision';
import { provideBuilt } from '../../machines/shared/provideBuilt';
import { useResource } from '../routes/shared/useResource';
import type { OpsClient } from './api/opsClient';
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
 * One act that answers once (machines/ops/opsActionMachine.ts), made with the screen's call; `onDone` runs after
 * every accepted answer (the screen reads again the lists the act changed). Both are taken once, when the machine is
 * made, so they should only reach actors that live as long as the screen.
 *
 * @example const approve = useDeskAction((request: { ids: string[] }) => api.call('opsWithdrawalsApprove', { body: request }), () => readAgain(queue));
 */
export function useDeskAction<TRequest, TResult>(act: (request: TRequest) => Promise<Answer<TResult>>, onDone: () => void = () => undefined) {
  const [logic] = useState(() =>
    provideBuilt(createOpsActionMachine<TRequest, TResult>(), {
      actors: { decide: fromPromise<Answer<TResult>, DecideRequest<ActSubject<TResult>, OpsAct>>(({ input }) => act(requestOfForm<TRequest>(input.form))) },
      actions: { reportDecided: () => onDone() },
    }),
  );
  return useActorRef(logic, { input: { subject: noAnswer, operator: '' } });
}

type DecisionMachine<TSubject, TAct extends string, TAnswer> = ReturnType<typeof createDeskDecisionMachine<TSubject, TAct, TAnswer>>;

/**
 * One item's decision (machines/shared/deskDecision.ts) by the signed-in operator: `decide` sends each act to its
 * endpoint, and `onDecided` runs after every accepted act (the screen reads its list again). Both are taken once,
 * when the machine is made, so they should only reach actors that live as long as the screen (its list's read).
 *
 * @example const decision = useDeskDecision(createHeldTopUpMachine, topUp, ({ act, subject }, api) => api.call(…), () => readAgain(held));
 */
export function useDeskDecision<TSubject, TAct extends string, TAnswer>(
  create: () => DecisionMachine<TSubject, TAct, TAnswer>,
  subject: TSubject,
  decide: (request: DecideRequest<TSubject, TAct>, api: OpsClient) => Promise<Answer<TAnswer>>,
  onDecided: () => void,
) {
  const { api } = useDesk();
  const operator = useOperator();
  const [logic] = useState(() =>
    provideBuilt(create(), {
      actors: { decide: fromPromise<Answer<TAnswer>, DecideRequest<TSubject, TAct>>(({ input }) => decide(input, api)) },
      actions: { reportDecided: () => onDecided() },
    }),
  );
  return useActorRef(logic, { input: { subject, operator: operator?.address ?? '' } });
}

/** The signed-in operator (null while signed out). */
export function useOperator() {
  const { session } = useDesk();
  return useSelector(session, (snapshot: SnapshotFrom<typeof session>) => (snapshot.matches('signedIn') ? snapshot.context.operator : null));
}
