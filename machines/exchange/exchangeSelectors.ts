/**
 * What the exchange sheet shows beyond the skeleton's selectors: the direction, the amount and its error, the
 * balance of the asset paid, and what arrives at the rate (the one amount rule's exchangeReceived, as the server
 * moves it), never computed in a component.
 */
import { formatMinor, normalizeAmount } from '../shared/amount';
import { selectFieldError, type MoneyFlowSnapshot } from '../shared/moneyFlowSelectors';
import { directionOf, receivedOf, type ExchangeAmountError, type ExchangeFrom, type ExchangeInput, type ExchangeResult } from './exchangeMachine';

type ExchangeSnapshot = MoneyFlowSnapshot<ExchangeInput, ExchangeResult>;

export const selectDirection = (snapshot: ExchangeSnapshot): ExchangeFrom => directionOf(snapshot.context.form);
/** The asset that arrives. */
export const selectReceivedAsset = (snapshot: ExchangeSnapshot): ExchangeFrom => (selectDirection(snapshot) === 'WPOS' ? 'CREDIT' : 'WPOS');
export const selectAmount = (snapshot: ExchangeSnapshot): string => snapshot.context.form.amount ?? '';
export const selectNormalizedAmount = (snapshot: ExchangeSnapshot): string | null => normalizeAmount(selectAmount(snapshot));
export const selectRate = (snapshot: ExchangeSnapshot): string => snapshot.context.input.rate;
export const selectAmountError = (snapshot: ExchangeSnapshot): ExchangeAmountError | null =>
  selectFieldError(snapshot, 'amount') as ExchangeAmountError | null;

/** The balance of the asset paid. */
export const selectPayBalance = (snapshot: ExchangeSnapshot): string =>
  selectDirection(snapshot) === 'WPOS' ? snapshot.context.input.wposBalance : snapshot.context.input.creditBalance;

/** What arrives, as a decimal string; null while the amount is no amount. */
export function selectReceived(snapshot: ExchangeSnapshot): string | null {
  const received = receivedOf(snapshot.context.form, snapshot.context.input);
  return received === null ? null : formatMinor(received);
}
