/**
 * Guard helpers several machines use.
 */
import { not } from 'xstate';
import type { EventObject, GuardPredicate, MachineContext, ParameterizedObject, WithDynamicParams } from 'xstate';

/**
 * xstate's `not` for a named guard whose params are read from the event, as in
 * `not({ type: 'hasAccounts', params: ({ event }) => ({ accounts: event.accounts }) })`. xstate evaluates such a
 * guard inside `not` (evaluateGuard resolves params functions at any depth), but the types of `not` accept only
 * static params (https://github.com/statelyai/xstate/issues/4559), so this states the type the transition expects.
 *
 * @example guard: notGuard({ type: 'hasAccounts', params: ({ event }) => ({ accounts: event.accounts }) })
 */
export function notGuard<TContext extends MachineContext, TEvent extends EventObject, TGuard extends ParameterizedObject>(
  guard: WithDynamicParams<TContext, TEvent, TGuard>,
): GuardPredicate<TContext, TEvent, undefined, TGuard> {
  return not(guard as never) as GuardPredicate<TContext, TEvent, undefined, TGuard>;
}
