/**
 * What the transfer sheet shows beyond the skeleton's selectors: the recipient and amount with their errors, the
 * team members matching what was typed (the picker), and what remains after the transfer, computed from the context
 * as bigint minor units, never in a component.
 */
import type { AmountError } from '../shared/amount';
import { formatMinor, normalizeAmount, parseAmount } from '../shared/amount';
import { checksummed } from '../shared/address';
import { selectFieldError, type MoneyFlowSnapshot } from '../shared/moneyFlowSelectors';
import type { RecipientError, TransferInput, TransferResult } from './transferMachine';

type TransferSnapshot = MoneyFlowSnapshot<TransferInput, TransferResult>;

/** How many matches the picker lists at once; the member narrows a long team by typing. */
export const pickerSize = 5;

export const selectRecipient = (snapshot: TransferSnapshot): string => snapshot.context.form.toAddress ?? '';
export const selectAmount = (snapshot: TransferSnapshot): string => snapshot.context.form.amount ?? '';
export const selectTransferInput = (snapshot: TransferSnapshot): TransferInput => snapshot.context.input;
export const selectRecipientError = (snapshot: TransferSnapshot): RecipientError | null =>
  selectFieldError(snapshot, 'toAddress') as RecipientError | null;
export const selectAmountError = (snapshot: TransferSnapshot): AmountError | null => selectFieldError(snapshot, 'amount') as AmountError | null;

/** The recipient as it will be sent (checksummed); null while it is no address. */
export const selectRecipientChecksummed = (snapshot: TransferSnapshot): string | null => checksummed(selectRecipient(snapshot));
export const selectNormalizedAmount = (snapshot: TransferSnapshot): string | null => normalizeAmount(selectAmount(snapshot));

/**
 * The team members whose address contains what was typed (case aside), at most pickerSize; none once the field
 * holds a whole address of the list. With nothing typed, the first of the list.
 */
export function selectRecipientMatches(snapshot: TransferSnapshot): { matches: string[]; total: number } {
  const typed = selectRecipient(snapshot).toLowerCase();
  const all = snapshot.context.input.recipients.filter((address) => address.toLowerCase().includes(typed));
  if (all.length === 1 && all[0]?.toLowerCase() === typed) return { matches: [], total: 0 };
  return { matches: all.slice(0, pickerSize), total: all.length };
}

/** The WPOS balance after the transfer; null while the amount is no amount. */
export function selectRemaining(snapshot: TransferSnapshot): string | null {
  const amount = parseAmount(selectAmount(snapshot));
  const balance = parseAmount(snapshot.context.input.balance);
  return amount === null || balance === null ? null : formatMinor(balance - amount);
}
