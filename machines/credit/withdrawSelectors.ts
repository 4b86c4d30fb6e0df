/**
 * What the withdrawal sheet shows, read from the withdraw machine's snapshot: each selector returns one value, and
 * the fee and what arrives are computed here from the context (as bigint minor units), never in a component.
 */
import type { SnapshotFrom } from 'xstate';
import type { ErrorInfo } from '../shared/errorInfo';
import { formatMinor, normalizeAmount, parseAmount } from '../shared/amount';
import type { AmountError } from '../shared/amount';
import type { WithdrawInput, WithdrawResult, withdrawMachine } from './withdrawMachine';

type WithdrawSnapshot = SnapshotFrom<typeof withdrawMachine>;

export type WithdrawView = 'editing' | 'confirming' | 'submitting' | 'interrupted' | 'failed' | 'done' | 'sessionEnded';

export function selectWithdrawView(snapshot: WithdrawSnapshot): WithdrawView {
  if (snapshot.matches('confirming')) return 'confirming';
  if (snapshot.matches('submitting')) return 'submitting';
  if (snapshot.matches('interrupted')) return 'interrupted';
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('done')) return 'done';
  if (snapshot.matches('sessionEnded')) return 'sessionEnded';
  return 'editing';
}

export const selectAmount = (snapshot: WithdrawSnapshot): string => snapshot.context.amount;
export const selectLimits = (snapshot: WithdrawSnapshot): WithdrawInput => snapshot.context.limits;
export const selectFee = (snapshot: WithdrawSnapshot): string => snapshot.context.limits.withdrawFee;
export const selectBalance = (snapshot: WithdrawSnapshot): string => snapshot.context.limits.balance;
export const selectResult = (snapshot: WithdrawSnapshot): WithdrawResult | null => snapshot.context.result;
export const selectWithdrawError = (snapshot: WithdrawSnapshot): ErrorInfo | null => snapshot.context.error;

/**
 * The field's own error, shown once the member typed something: an empty field that was never touched says
 * nothing. A server rejection (3001, 3002, 3003) is not a field error; selectWithdrawError has it.
 */
export function selectFieldError(snapshot: WithdrawSnapshot): AmountError | null {
  const { fieldError, amount } = snapshot.context;
  return fieldError === 'empty' && amount === '' ? null : fieldError;
}

/** The amount as it will be sent ("007.5" → "7.5"); null while it is no amount. */
export const selectNormalizedAmount = (snapshot: WithdrawSnapshot): string | null => normalizeAmount(snapshot.context.amount);

/**
 * What arrives: amount − fee as a decimal string, 0 when the fee takes it all; null while the amount is no
 * amount.
 */
export function selectReceive(snapshot: WithdrawSnapshot): string | null {
  const amount = parseAmount(snapshot.context.amount);
  const fee = parseAmount(snapshot.context.limits.withdrawFee);
  if (amount === null || fee === null) return null;
  return formatMinor(amount > fee ? amount - fee : 0n);
}

/** True when the summary may open: the machine accepts user.submit (its isAmountValid guard). */
export const selectCanSubmit = (snapshot: WithdrawSnapshot): boolean => snapshot.can({ type: 'user.submit' });
export const selectCanRetry = (snapshot: WithdrawSnapshot): boolean => snapshot.can({ type: 'user.retry' });
export const selectCanCancel = (snapshot: WithdrawSnapshot): boolean => snapshot.can({ type: 'user.cancel' });
export const selectIsBusy = (snapshot: WithdrawSnapshot): boolean => snapshot.hasTag('busy');
