/**
 * One act of the desk that changes something and answers once: a bulk approval, a member signed out everywhere, a
 * freeze, a grant or deduction, an operator added or removed, an API key made or revoked, a re-read of blocks. An
 * instance of the desk's decision skeleton (machines/shared/deskDecision.ts) on no item: always open, its form filled
 * at once with the screen's request (`runAct`), confirmed with a request id; a retry sends the same request, so an
 * act that moves money moves it once. The answer stays on the subject until the operator puts it away (an API key is
 * shown once, there); `reportDecided`, which the screen provides, reads again the lists an accepted act changed.
 */
import type { ActorRefFrom } from 'xstate';
import { createDeskDecisionMachine } from '../shared/deskDecision';
import type { DecisionForm, DecisionSpec } from '../shared/deskDecision';

/** The act's answer, kept until put away. */
export interface ActSubject<TResult> {
  /** Whether an answer came (a result may be null: an act that answers nothing). */
  answered: boolean;
  result: TResult | null;
}

export type OpsAct = 'run';

/** The subject before the first answer, and after one is put away. */
export const noAnswer = { answered: false, result: null } as const;

const actSpec = <TResult>(): DecisionSpec<ActSubject<TResult>, OpsAct, TResult> => ({
  id: 'opsAction',
  acts: { run: { request: '' } },
  isFormValid: (_, form) => (form.request ?? '') !== '',
  merge: (_, answer) => ({ answered: true, result: answer }),
  putAway: () => noAnswer,
  describe: { ready: 'opsAction.ready', closed: 'opsAction.ready' },
});

/** The request as the act's form holds it (JSON: requests are plain data) and as the act sends it. */
export const formOfRequest = (request: unknown): DecisionForm => ({ request: JSON.stringify(request) });
export const requestOfForm = <TRequest>(form: DecisionForm): TRequest => JSON.parse(form.request ?? 'null') as TRequest;

/**
 * Builds the machine for one kind of act; `opsActionMachine` below is the same for unknown requests. `_TRequest`
 * names the request the screen's runAct sends (the machine holds it as its form).
 */
// @__NO_SIDE_EFFECTS__
export function createOpsActionMachine<_TRequest, TResult>() {
  return createDeskDecisionMachine(actSpec<TResult>());
}

export const opsActionMachine = createOpsActionMachine<unknown, unknown>();
export type OpsActionMachine = typeof opsActionMachine;

/**
 * Runs the act with this request: its form filled at once and confirmed with a new request id (a retry of a refusal
 * sends the same one).
 *
 * @example runAct(approve, { ids: ['41', '42'] });
 */
export function runAct<TRequest>(actor: Pick<ActorRefFrom<OpsActionMachine>, 'send'>, request: TRequest): void {
  actor.send({ type: 'user.choose', act: 'run', form: formOfRequest(request) });
  actor.send({ type: 'user.confirm', requestId: crypto.randomUUID() });
}
