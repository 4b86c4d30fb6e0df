/**
 * What the top-up sheet shows, read from the top-up machine's snapshot: which step, the balance, the amount and its
 * error, the blocks on top, the hash. The sheet asks these, never the machine's states or context directly.
 */
import type { SnapshotFrom } from 'xstate';
import type { AmountError } from '../shared/amount';
import type { ErrorInfo } from '../shared/errorInfo';
import type { topUpMachine } from './topUpMachine';

type TopUpSnapshot = SnapshotFrom<typeof topUpMachine>;

export type TopUpStep = 'loading' | 'unavailable' | 'form' | 'wallet' | 'walletBusy' | 'confirming' | 'notFound' | 'failed' | 'replaced' | 'credited';

/** The step the sheet shows. */
export function selectTopUpStep(snapshot: TopUpSnapshot): TopUpStep {
  if (snapshot.matches('unavailable')) return 'unavailable';
  if (snapshot.matches('editing')) return 'form';
  if (snapshot.matches('awaitingWallet')) return 'wallet';
  if (snapshot.matches('walletBusy')) return 'walletBusy';
  if (snapshot.hasTag('waiting')) return 'confirming';
  if (snapshot.matches('notFound')) return 'notFound';
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('replaced')) return 'replaced';
  if (snapshot.matches('credited')) return 'credited';
  return 'loading';
}

export const selectTopUpBalance = (snapshot: TopUpSnapshot): string | null => snapshot.context.balance;
export const selectTopUpAmount = (snapshot: TopUpSnapshot): string => snapshot.context.amount;
/** The amount's error once the member typed something (an empty field is no error until then). */
export const selectTopUpAmountError = (snapshot: TopUpSnapshot): AmountError | null => (snapshot.context.amount === '' ? null : snapshot.context.amountError);
export const selectTopUpError = (snapshot: TopUpSnapshot): ErrorInfo | null => snapshot.context.error;
export const selectTopUpHash = (snapshot: TopUpSnapshot): string | null => snapshot.context.txHash;
export const selectTopUpCredited = (snapshot: TopUpSnapshot): string | null => snapshot.context.credited;
/** Blocks on top so far, and how many count once the server said (0 until then). */
export const selectTopUpConfirmations = (snapshot: TopUpSnapshot): number => snapshot.context.confirmations;
export const selectTopUpRequired = (snapshot: TopUpSnapshot): number => snapshot.context.required;
/** Whether Top up may be pressed: the machine's own guard. */
export const selectCanTopUp = (snapshot: TopUpSnapshot): boolean => snapshot.can({ type: 'user.submit' });
