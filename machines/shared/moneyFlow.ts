/**
 * The money-flow skeleton every flow that moves money is an instance of (withdrawal now; WPOS transfer, flash
 * exchange and settlement next): editing → confirming (the request id is fixed there) → submitting → done | failed
 * | interrupted | sessionEnded. A flow brings its form (fields checked as typed against its input), the body it
 * sends, and which server refusals the member fixes by editing; the skeleton keeps the rest alike for all: every
 * retry of one confirmation (network failure, 4290, 5000, 3005, a member who stopped waiting, an unknown code)
 * sends the same request id, so the server moves the money at most once (ADR 0011); a refusal fixed by editing
 * drops the id; 1002 ends the flow as the auth machine ends the session. Codes come from api-schema's ApiCode.
 *
 * Form values stay strings (decimal amounts, addresses) so the context is JSON; flows compare amounts with
 * machines/shared/amount.ts.
 */
import { assign, fromPromise, setup } from 'xstate';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import type { Answer } from './answer';
import { ApiErrorName } from './errorNames';
import { notProvided, toErrorInfo, type ErrorInfo } from './errorInfo';
import { Decisions, type TransitionMeta } from './transitionMeta';

/** A flow's form: field name → the text as typed. */
export type MoneyForm = Record<string, string>;
/** A flow's field errors: field name → the error's name (a locale key), null when the field is fine. */
export type FieldErrors = Record<string, string | null>;

export interface MoneyFlowContext<TInput, TResult> {
  /** What the flow started from (limits, balance), fixed for its life. */
  input: TInput;
  form: MoneyForm;
  /** Checked on every change. */
  fieldErrors: FieldErrors;
  /** The id of the confirmed request, reused by every retry; null until the member confirms. */
  requestId: string | null;
  result: TResult | null;
  /** The server's or the network's answer the member last got. */
  error: ErrorInfo | null;
}

export type MoneyFlowEvent =
  | { type: 'field.change'; field: string; value: string }
  | { type: 'user.submit' }
  | { type: 'user.edit' }
  | { type: 'user.confirm'; requestId: string }
  | { type: 'user.retry' }
  | { type: 'user.cancel' };

/** What the submit actor gets: the flow's body and the request id. */
export interface SubmitInput<TBody> {
  body: TBody;
  requestId: string;
}

export interface MoneyFlowSpec<TInput, TBody> {
  /** The machine's id (its diagram is docs/machines/<id>.md). */
  id: string;
  /** The form's fields with their first values. */
  fields: MoneyForm;
  /** Checks the whole form against the input: every field's error, null where fine. */
  check: (form: MoneyForm, input: TInput) => FieldErrors;
  /** The body to send, from a form that passed check (amounts in the API's canonical form). */
  body: (form: MoneyForm, input: TInput) => TBody;
  /** The server's refusals the member fixes by editing: the flow goes back to the form and drops the request id. */
  editCodes: readonly ApiCodeValue[];
  /** What the editing and done states mean in this flow (the diagram's words). */
  describe: { editing: string; done: string };
}

/** Answers after which the same request, with the same id, may succeed: nothing was decided yet. */
const retryableCodes: readonly number[] = [ApiCode.clientFailure, ApiCode.tooManyRequests, ApiCode.internal];

const apiError = (code: number): ErrorInfo => ({ name: ApiErrorName, code });
const decided = { decision: Decisions.withdrawalRequestId };
const hasNoError = (errors: FieldErrors) => Object.values(errors).every((error) => error === null);

/**
 * A money flow's machine from its spec.
 *
 * @param spec - id, form, checks, body, the codes fixed by editing, descriptions
 * @returns the machine; provide its `submit` actor (and `reportDone`) with .provide()
 * @example
 * export const withdrawMachine = createMoneyFlowMachine<WithdrawInput, WithdrawBody, WithdrawResult>({ id: 'withdraw', ... });
 */
export function createMoneyFlowMachine<TInput, TBody, TResult>(spec: MoneyFlowSpec<TInput, TBody>) {
  const codeIs = (code: number) => (_: unknown, params: { code: number }) => params.code === code;
  const answered = <T>(event: { output: Answer<T> }) => ({ code: event.output.code });
  return setup({
    types: {
      context: {} as MoneyFlowContext<TInput, TResult>,
      events: {} as MoneyFlowEvent,
      input: {} as TInput,
      transitionMeta: {} as TransitionMeta,
    },
    actors: {
      /** Sends the body with the request id; resolves with the envelope and never needs to throw. */
      submit: fromPromise<Answer<TResult>, SubmitInput<TBody>>(async () => notProvided(spec.id, 'submit')),
    },
    actions: {
      assignField: assign(({ context }, params: { field: string; value: string }) => {
        const form = { ...context.form, [params.field]: params.value };
        return { form, fieldErrors: spec.check(form, context.input), error: null };
      }),
      assignRequestId: assign((_, params: { requestId: string }) => ({ requestId: params.requestId, error: null })),
      assignResult: assign((_, params: { result: TResult | null }) => ({ result: params.result, error: null })),
      assignRejection: assign((_, params: { code: number }) => ({ error: apiError(params.code), requestId: null })),
      assignFailure: assign((_, params: { code: number }) => ({ error: apiError(params.code) })),
      assignThrown: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
      clearError: assign({ error: null }),
      reportDone: () => {
        // Provided by the app: money moved, so what shows balances is read again (auth app.refreshProfile).
      },
    },
    guards: {
      isFormValid: ({ context }) => hasNoError(spec.check(context.form, context.input)),
      isOk: codeIs(ApiCode.ok),
      isNotSignedIn: codeIs(ApiCode.notSignedIn),
      isFixedByEditing: (_, params: { code: number }) => (spec.editCodes as readonly number[]).includes(params.code),
      isStillProcessing: codeIs(ApiCode.requestInProgress),
      isRetryable: (_, params: { code: number }) => retryableCodes.includes(params.code),
    },
  }).createMachine({
    id: spec.id,
    context: ({ input }) => ({
      input,
      form: spec.fields,
      fieldErrors: spec.check(spec.fields, input),
      requestId: null,
      result: null,
      error: null,
    }),
    initial: 'editing',
    states: {
      editing: {
        description: spec.describe.editing,
        on: {
          'field.change': { actions: { type: 'assignField', params: ({ event }) => ({ field: event.field, value: event.value }) } },
          'user.submit': {
            guard: 'isFormValid',
            target: 'confirming',
            description: 'moneyFlow.editing:user.submit[isFormValid]',
          },
        },
      },
      confirming: {
        description: 'moneyFlow.confirming',
        on: {
          'user.confirm': {
            target: 'submitting',
            actions: { type: 'assignRequestId', params: ({ event }) => ({ requestId: event.requestId }) },
            meta: decided,
            description: 'moneyFlow.confirming:user.confirm',
          },
          'user.edit': 'editing',
        },
      },
      submitting: {
        description: 'moneyFlow.submitting',
        tags: 'busy',
        invoke: {
          id: 'submit',
          src: 'submit',
          input: ({ context }) => ({ body: spec.body(context.form, context.input), requestId: context.requestId ?? '' }),
          onDone: [
            {
              guard: { type: 'isOk', params: ({ event }) => answered(event) },
              target: 'done',
              actions: { type: 'assignResult', params: ({ event }) => ({ result: event.output.result }) },
            },
            {
              guard: { type: 'isNotSignedIn', params: ({ event }) => answered(event) },
              target: 'sessionEnded',
              actions: { type: 'assignFailure', params: ({ event }) => answered(event) },
              meta: { apiCodes: [ApiCode.notSignedIn] },
              description: 'moneyFlow.submitting:done.submit[isNotSignedIn]',
            },
            {
              guard: { type: 'isFixedByEditing', params: ({ event }) => answered(event) },
              target: 'editing',
              actions: { type: 'assignRejection', params: ({ event }) => answered(event) },
              meta: { ...decided, apiCodes: spec.editCodes },
              description: 'moneyFlow.submitting:done.submit[isFixedByEditing]',
            },
            {
              guard: { type: 'isStillProcessing', params: ({ event }) => answered(event) },
              target: 'failed',
              actions: { type: 'assignFailure', params: ({ event }) => answered(event) },
              meta: { ...decided, apiCodes: [ApiCode.requestInProgress] },
              description: 'moneyFlow.submitting:done.submit[isStillProcessing]',
            },
            {
              guard: { type: 'isRetryable', params: ({ event }) => answered(event) },
              target: 'failed',
              actions: { type: 'assignFailure', params: ({ event }) => answered(event) },
              meta: { ...decided, apiCodes: retryableCodes },
              description: 'moneyFlow.submitting:done.submit[isRetryable]',
            },
            {
              target: 'failed',
              actions: { type: 'assignFailure', params: ({ event }) => answered(event) },
              meta: decided,
              description: 'moneyFlow.submitting:done.submit',
            },
          ],
          onError: { target: 'failed', actions: { type: 'assignThrown', params: ({ event }) => ({ error: event.error }) } },
        },
        on: {
          'user.cancel': {
            target: 'interrupted',
            meta: decided,
            description: 'moneyFlow.submitting:user.cancel',
          },
        },
      },
      interrupted: {
        description: 'moneyFlow.interrupted',
        on: { 'user.retry': { target: 'submitting', actions: 'clearError' } },
      },
      failed: {
        description: 'moneyFlow.failed',
        on: { 'user.retry': { target: 'submitting', actions: 'clearError' } },
      },
      done: { type: 'final', entry: 'reportDone', description: spec.describe.done },
      sessionEnded: {
        type: 'final',
        description: 'shared.sessionEnded',
      },
    },
  });
}
