/**
 * What a desk screen shows of a decision (machines/shared/deskDecision.ts), read from its snapshot: the stage, the
 * act asked for, the form as typed, the refusal and the item as the last answer left it. Components keep no copy.
 */
import type { StateValue } from 'xstate';
import type { DecisionContext, DecisionForm } from './deskDecision';
import type { ErrorInfo } from './errorInfo';

/** The part of a decision's snapshot the selectors read (every instance's snapshot has it). */
export interface DecisionSnapshot<TSubject, TAct extends string> {
  value: StateValue;
  context: DecisionContext<TSubject, TAct>;
}

/** Sorting is passed through at once, so a screen never sees it. */
export type DecisionStage = 'ready' | 'form' | 'busy' | 'refused' | 'closed';
const stages: readonly string[] = ['ready', 'form', 'busy', 'refused', 'closed'] satisfies DecisionStage[];

export function selectDecisionStage(snapshot: DecisionSnapshot<unknown, string>): DecisionStage {
  const value = snapshot.value;
  return typeof value === 'string' && stages.includes(value) ? (value as DecisionStage) : 'closed';
}

export const selectDecisionAct = <TAct extends string>(snapshot: DecisionSnapshot<unknown, TAct>): TAct | null => snapshot.context.act;
export const selectDecisionForm = (snapshot: DecisionSnapshot<unknown, string>): DecisionForm => snapshot.context.form;
export const selectDecisionError = (snapshot: DecisionSnapshot<unknown, string>): ErrorInfo | null => snapshot.context.error;
/** The item as the last accepted act left it. */
export const selectDecisionSubject = <TSubject>(snapshot: DecisionSnapshot<TSubject, string>): TSubject => snapshot.context.subject;
