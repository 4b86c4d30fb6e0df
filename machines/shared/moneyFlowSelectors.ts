/**
 * What a money flow's screen shows, read from any money-flow machine's snapshot (machines/shared/moneyFlow.ts):
 * the step, the form and its errors, the answer, and what the member may do next (asked of the machine with
 * snapshot.can, never recomputed in a component).
 */
import type { ErrorInfo } from './errorInfo';
import type { FieldErrors, MoneyFlowContext, MoneyFlowEvent, MoneyForm } from './moneyFlow';

/** The skeleton's states, one per step the sheet shows. */
export type MoneyFlowView = 'editing' | 'confirming' | 'submitting' | 'interrupted' | 'failed' | 'done' | 'sessionEnded';

const views: readonly MoneyFlowView[] = ['editing', 'confirming', 'submitting', 'interrupted', 'failed', 'done', 'sessionEnded'];

/** The part of a money flow's snapshot the selectors read. */
export interface MoneyFlowSnapshot<TInput = unknown, TResult = unknown> {
  value: unknown;
  context: MoneyFlowContext<TInput, TResult>;
  can(event: MoneyFlowEvent): boolean;
  hasTag(tag: 'busy'): boolean;
}

export function selectFlowView(snapshot: MoneyFlowSnapshot): MoneyFlowView {
  const value = snapshot.value;
  return typeof value === 'string' && (views as readonly string[]).includes(value) ? (value as MoneyFlowView) : 'editing';
}

export const selectForm = (snapshot: MoneyFlowSnapshot): MoneyForm => snapshot.context.form;
export const selectFlowError = (snapshot: MoneyFlowSnapshot): ErrorInfo | null => snapshot.context.error;
export const selectInput = <TInput>(snapshot: MoneyFlowSnapshot<TInput>): TInput => snapshot.context.input;
export const selectResult = <TResult>(snapshot: MoneyFlowSnapshot<unknown, TResult>): TResult | null => snapshot.context.result;

/**
 * A field's own error, shown once the member typed something: an empty field never touched says nothing. A
 * server refusal is not a field error; selectFlowError has it.
 */
export function selectFieldError(snapshot: MoneyFlowSnapshot, field: string): string | null {
  const errors: FieldErrors = snapshot.context.fieldErrors;
  const error = errors[field] ?? null;
  return error === 'empty' && (snapshot.context.form[field] ?? '') === '' ? null : error;
}

/** True when the summary may open: the machine accepts user.submit (its isFormValid guard). */
export const selectCanSubmit = (snapshot: MoneyFlowSnapshot): boolean => snapshot.can({ type: 'user.submit' });
export const selectCanRetry = (snapshot: MoneyFlowSnapshot): boolean => snapshot.can({ type: 'user.retry' });
export const selectCanCancel = (snapshot: MoneyFlowSnapshot): boolean => snapshot.can({ type: 'user.cancel' });
export const selectIsBusy = (snapshot: MoneyFlowSnapshot): boolean => snapshot.hasTag('busy');
