/**
 * The decision skeleton every act of the desk on one item is an instance of (a withdrawal approved or failed, a held
 * top-up released or returned, an order shipped or refunded): sorting → ready → form → busy → back to sorting |
 * refused with retry, and closed when nothing is left to decide. An instance brings its acts (each with the fields
 * its form asks for), which acts the item allows as it stands, how a form is checked and how an answer changes the
 * item; the skeleton keeps the rest alike: one event vocabulary (`user.choose`, `field.change`, `user.confirm`,
 * `user.retry`, `user.cancel`), the request id fixed when the operator confirms and sent again by every retry, so an
 * act that moves money moves it once, and `reportDecided` after every accepted act, which the screen provides to
 * read again the list the act changed (no effect in a component watches for it). An act on no item (a key made, a
 * member frozen: machines/ops/opsActionMachine.ts) leaves `openActs` out, so it is always open and never closed,
 * fills its form at once with `user.choose`, and keeps its answer until `user.cancel` puts it away (`putAway`).
 */
import { assign, fromPromise, setup } from 'xstate';
import { ApiCode } from '../../api-schema/codes';
import type { Answer } from './answer';
import { ApiErrorName } from './errorNames';
import { notProvided, toErrorInfo, type ErrorInfo } from './errorInfo';

/** An act's form: field name → the text as typed. */
export type DecisionForm = Record<string, string>;

export interface DecisionInput<TSubject> {
  subject: TSubject;
  /** The signed-in operator's address (an approval of their own counts once). */
  operator: string;
}

export interface DecisionContext<TSubject, TAct extends string> extends DecisionInput<TSubject> {
  /** The act being asked for, null while none is. */
  act: TAct | null;
  form: DecisionForm;
  /** Made when the operator confirms and kept for every retry of that confirmation. */
  requestId: string | null;
  error: ErrorInfo | null;
}

export type DecisionEvent<TAct extends string> =
  /** An act asked for; `form` fills its fields at once (an act whose request the screen has whole). */
  | { type: 'user.choose'; act: TAct; form?: DecisionForm }
  | { type: 'field.change'; field: string; value: string }
  | { type: 'user.confirm'; requestId: string }
  | { type: 'user.retry' }
  | { type: 'user.cancel' };

/** What the decide actor gets: the act, the item, the form as typed (trimmed) and the request id. */
export interface DecideRequest<TSubject, TAct extends string> {
  act: TAct;
  subject: TSubject;
  form: DecisionForm;
  requestId: string;
}

export interface DecisionSpec<TSubject, TAct extends string, TAnswer> {
  /** The machine's id (its diagram is docs/machines/<id>.md). */
  id: string;
  /** Every act with the fields its form asks for and their first values ({} for a confirmation alone). */
  acts: Record<TAct, DecisionForm>;
  /**
   * The acts the item allows as it stands, for this operator; none closes it. Left out: every act is always open
   * (an act on no item, such as a key made or a member frozen), and the machine has no closed state.
   */
  openActs?: (subject: TSubject, operator: string) => readonly TAct[];
  /** Whether the form lets the act go (the server checks it again). */
  isFormValid: (act: TAct, form: DecisionForm) => boolean;
  /** The item after an accepted act, from the server's answer. */
  merge: (subject: TSubject, answer: TAnswer | null) => TSubject;
  /** What the ready and closed states mean for this item (the diagram's words). */
  describe: { ready: string; closed: string };
  /**
   * How the subject looks once the operator puts the last answer away (user.cancel while ready): an act that keeps
   * its answer on the screen until then. Left out: ready takes no user.cancel.
   */
  putAway?: (subject: TSubject) => TSubject;
}

/** Whether a typed reason (trimmed) is there and at most `max` characters, as the server keeps it. */
export const hasReason = (form: DecisionForm, max: number): boolean => {
  const reason = form.reason ?? '';
  return reason.length > 0 && reason.length <= max;
};

const trimmed = (form: DecisionForm): DecisionForm => Object.fromEntries(Object.entries(form).map(([field, value]) => [field, value.trim()]));

/**
 * A decision's machine from its spec.
 *
 * @returns the machine; provide its `decide` actor (and `reportDecided`) with provideBuilt
 * @example export const heldTopUpMachine = createDeskDecisionMachine<DecidableTopUp, HeldTopUpAct, DecidableTopUp>({ id: 'heldTopUp', ... });
 */
// @__NO_SIDE_EFFECTS__
export function createDeskDecisionMachine<TSubject, TAct extends string, TAnswer>(spec: DecisionSpec<TSubject, TAct, TAnswer>) {
  return setup({
    types: {
      context: {} as DecisionContext<TSubject, TAct>,
      events: {} as DecisionEvent<TAct>,
      input: {} as DecisionInput<TSubject>,
      tags: {} as 'busy',
    },
    actors: {
      /** Sends the act; resolves with the envelope and never needs to throw. */
      decide: fromPromise<Answer<TAnswer>, DecideRequest<TSubject, TAct>>(async () => notProvided(spec.id, 'decide')),
    },
    actions: {
      assignAct: assign((_, params: { act: TAct; form: DecisionForm | undefined }) => ({ act: params.act, form: { ...spec.acts[params.act], ...params.form }, requestId: null, error: null })),
      assignPutAway: assign(({ context }) => ({ subject: spec.putAway ? spec.putAway(context.subject) : context.subject })),
      assignField: assign(({ context }, params: { field: string; value: string }) => ({ form: { ...context.form, [params.field]: params.value } })),
      assignRequestId: assign((_, params: { requestId: string }) => ({ requestId: params.requestId, error: null })),
      assignDecided: assign(({ context }, params: { answer: TAnswer | null }) => ({
        subject: spec.merge(context.subject, params.answer),
        act: null,
        form: {},
        requestId: null,
        error: null,
      })),
      assignRefusal: assign((_, params: { code: number }) => ({ error: { name: ApiErrorName, code: params.code } })),
      assignThrown: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
      clear: assign({ act: null, form: {}, requestId: null, error: null }),
      reportDecided: () => {
        // Provided by the screen: the act changed its list, which is read again.
      },
    },
    guards: {
      hasOpenActs: ({ context }) => (spec.openActs ? spec.openActs(context.subject, context.operator).length > 0 : true),
      isOpenAct: ({ context }, params: { act: TAct }) => (spec.openActs ? spec.openActs(context.subject, context.operator).includes(params.act) : params.act in spec.acts),
      isFormValid: ({ context }) => context.act !== null && spec.isFormValid(context.act, trimmed(context.form)),
      isOk: (_, params: { code: number }) => params.code === ApiCode.ok,
    },
  }).createMachine({
    id: spec.id,
    context: ({ input }) => ({ subject: input.subject, operator: input.operator, act: null, form: {}, requestId: null, error: null }),
    initial: 'sorting',
    states: {
      /** Where the item stands decides what the operator may do. */
      sorting: {
        description: 'deskDecision.sorting',
        always: spec.openActs
          ? [
              { guard: 'hasOpenActs', target: 'ready', description: 'deskDecision.sorting:always[hasOpenActs]' },
              { target: 'closed', description: 'deskDecision.sorting:always' },
            ]
          : [{ target: 'ready', description: 'deskDecision.sorting:always[alwaysOpen]' }],
      },
      ready: {
        description: spec.describe.ready,
        on: {
          'user.choose': {
            guard: { type: 'isOpenAct', params: ({ event }) => ({ act: event.act }) },
            target: 'form',
            actions: { type: 'assignAct', params: ({ event }) => ({ act: event.act, form: event.form }) },
            description: 'deskDecision.ready:user.choose[isOpenAct]',
          },
          ...(spec.putAway ? { 'user.cancel': { target: 'sorting', actions: 'assignPutAway', description: 'deskDecision.ready:user.cancel' } } : {}),
        },
      },
      /** The act's fields (none for a confirmation alone); confirming fixes the request id. */
      form: {
        description: 'deskDecision.form',
        on: {
          'field.change': {
            actions: { type: 'assignField', params: ({ event }) => ({ field: event.field, value: event.value }) },
            description: 'deskDecision.form:field.change',
          },
          'user.confirm': {
            guard: 'isFormValid',
            target: 'busy',
            actions: { type: 'assignRequestId', params: ({ event }) => ({ requestId: event.requestId }) },
            description: 'deskDecision.form:user.confirm[isFormValid]',
          },
          'user.cancel': { target: 'sorting', actions: 'clear', description: 'deskDecision.form:user.cancel' },
        },
      },
      busy: {
        description: 'deskDecision.busy',
        tags: 'busy',
        invoke: {
          src: 'decide',
          id: 'decide',
          // The act is set by user.choose, the only way into the form and so into busy.
          input: ({ context }) => ({ act: context.act as TAct, subject: context.subject, form: trimmed(context.form), requestId: context.requestId ?? '' }),
          onDone: [
            {
              guard: { type: 'isOk', params: ({ event }) => ({ code: event.output.code }) },
              target: 'sorting',
              actions: [{ type: 'assignDecided', params: ({ event }) => ({ answer: event.output.result }) }, 'reportDecided'],
              description: 'deskDecision.busy:done.decide[isOk]',
            },
            {
              target: 'refused',
              actions: { type: 'assignRefusal', params: ({ event }) => ({ code: event.output.code }) },
              description: 'deskDecision.busy:done.decide',
            },
          ],
          onError: {
            target: 'refused',
            actions: { type: 'assignThrown', params: ({ event }) => ({ error: event.error }) },
            description: 'deskDecision.busy:error.decide',
          },
        },
      },
      /** Refused (decided elsewhere, a role missing, a wrong value) or dropped: the same request again, or back. */
      refused: {
        description: 'deskDecision.refused',
        on: {
          'user.retry': { target: 'busy', description: 'deskDecision.refused:user.retry' },
          'user.cancel': { target: 'sorting', actions: 'clear', description: 'deskDecision.refused:user.cancel' },
        },
      },
      ...(spec.openActs ? { closed: { description: spec.describe.closed } } : {}),
    },
  });
}
