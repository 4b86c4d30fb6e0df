/**
 * What the withdrawal sheet shows beyond the skeleton's selectors (machines/shared/moneyFlowSelectors.ts): the
 * amount, its limits and what arrives, computed from the context as bigint minor units, never in a component.
 */
import type { AmountError } from '../shared/amount';
import { formatMinor, normalizeAmount, parseAmount } from '../shared/amount';
import { selectFieldError, type MoneyFlowSnapshot } from '../shared/moneyFlowSelectors';
import type { WithdrawInput, WithdrawResult } from './withdrawMachine';

type WithdrawSnapshot = MoneyFlowSnapshot<WithdrawInput, WithdrawResult>;

export const selectAmount = (snapshot: WithdrawSnapshot): string => snapshot.context.form.amount ?? '';
export const selectLimits = (snapshot: WithdrawSnapshot): WithdrawInput => snapshot.context.input;
export const selectFee = (snapshot: WithdrawSnapshot): string => snapshot.context.input.withdrawFee;
export const selectBalance = (snapshot: WithdrawSnapshot): string => snapshot.context.input.balance;
/** The amount field's error once the member typed (the skeleton's rule). */
export const selectAmountError = (snapshot: WithdrawSnapshot): AmountError | null => selectFieldError(snapshot, 'amount') as AmountError | null;

/** The amount as it will be sent ("007.5" → "7.5"); null while it is no amount. */
export const selectNormalizedAmount = (snapshot: WithdrawSnapshot): string | null => normalizeAmount(selectAmount(snapshot));

/** What arrives: amount − fee as a decimal string, 0 when the fee takes it all; null while the amount is no amount. */
export function selectReceive(snapshot: WithdrawSnapshot): string | null {
  const amount = parseAmount(selectAmount(snapshot));
  const fee = parseAmount(snapshot.context.input.withdrawFee);
  if (amount === null || fee === null) return null;
  return formatMinor(amount > fee ? amount - fee : 0n);
}

/**
 * What happens next to the recorded withdrawal, from the status withdrawCredit answered (docs/API.md, "Credit on
 * chain"): `review` (pending: an operator approves it first), `payment` (approved or sent: the payer sends it to the
 * member's address), `paid` (done), `refunded` (failed); null before it is recorded.
 */
export type WithdrawalNext = 'review' | 'payment' | 'paid' | 'refunded';
export function selectWithdrawalNext(snapshot: WithdrawSnapshot): WithdrawalNext | null {
  const status = snapshot.context.result?.status;
  if (status === undefined) return null;
  const next: Record<WithdrawResult['status'], WithdrawalNext> = { pending: 'review', approved: 'payment', sent: 'payment', done: 'paid', failed: 'refunded' };
  return next[status];
}
