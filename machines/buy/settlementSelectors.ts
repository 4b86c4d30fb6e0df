/**
 * What the settlement page shows, read from the machine's snapshot: the step, the order and its figures (bigint
 * minor units, written back as decimal strings), why the member cannot confirm yet, and what the member may do
 * next (asked of the machine with snapshot.can, never recomputed in a component).
 */
import type { SnapshotFrom } from 'xstate';
import type { ErrorInfo } from '../shared/errorInfo';
import type { DeliveryAddress, Goods, SettleResult } from './buyContract';
import { blockersOf, formatFigure, orderTotal, quantityLimit, shortfallOf, type CheckoutBlocker } from './checkout';
import type { SettlementMachine, SettlementRefusal } from './settlementMachine';

type SettlementSnapshot = SnapshotFrom<SettlementMachine>;

/** The machine's states, one per step the page shows. */
export type SettlementView = SettlementSnapshot['value'];

export const selectSettlementView = (snapshot: SettlementSnapshot): SettlementView => snapshot.value;
export const selectIsBusy = (snapshot: SettlementSnapshot): boolean => snapshot.hasTag('busy');

export const selectGoods = (snapshot: SettlementSnapshot): Goods | null => snapshot.context.goods;
export const selectQuantity = (snapshot: SettlementSnapshot): number => snapshot.context.quantity;
/** The stepper's upper end, min(stock, 999); null before the goods are known. */
export const selectQuantityLimit = (snapshot: SettlementSnapshot): number | null =>
  snapshot.context.goods ? quantityLimit(snapshot.context.goods) : null;
export const selectAddresses = (snapshot: SettlementSnapshot): readonly DeliveryAddress[] => snapshot.context.addresses;
export const selectChosenAddress = (snapshot: SettlementSnapshot): DeliveryAddress | null =>
  snapshot.context.addresses.find((address) => address.deliveryId === snapshot.context.deliveryId) ?? null;
export const selectBalance = (snapshot: SettlementSnapshot): string | null => snapshot.context.balance;
/** price × quantity as a decimal string; null before the goods are known. */
export const selectTotal = (snapshot: SettlementSnapshot): string | null => formatFigure(orderTotal(snapshot.context));

/** Why confirming is not possible yet; empty when it is (the machine's canConfirm guard reads the same list). */
export const selectBlockers = (snapshot: SettlementSnapshot): CheckoutBlocker[] => blockersOf(snapshot.context);
/** No address chosen (none in the book yet): the page offers to add or choose one. */
export const selectNeedsAddress = (snapshot: SettlementSnapshot): boolean => selectBlockers(snapshot).includes('needsAddress');
export const selectSoldOut = (snapshot: SettlementSnapshot): boolean => selectBlockers(snapshot).includes('soldOut');

/** The credit missing for the order, a decimal string; null when the balance covers it or is not known. */
export function selectShortfall(snapshot: SettlementSnapshot): string | null {
  const shortfall = shortfallOf(snapshot.context);
  return shortfall === null || shortfall === 0n ? null : formatFigure(shortfall);
}

/**
 * What to get before paying: at least `amount` more CREDIT (the page links to where credit comes from, the flash
 * exchange from WPOS); null when nothing is missing.
 */
export function selectTopUp(snapshot: SettlementSnapshot): { asset: 'CREDIT'; amount: string } | null {
  const amount = selectShortfall(snapshot);
  return amount === null ? null : { asset: 'CREDIT', amount };
}

/** True when a figure moved since the member last confirmed (price, quantity, address): confirm the new ones. */
export const selectChanged = (snapshot: SettlementSnapshot): boolean => snapshot.context.changed;

export const selectCanConfirm = (snapshot: SettlementSnapshot): boolean => snapshot.can({ type: 'user.confirm', requestId: '' });
export const selectCanIncrement = (snapshot: SettlementSnapshot): boolean => snapshot.can({ type: 'quantity.inc' });
export const selectCanDecrement = (snapshot: SettlementSnapshot): boolean => snapshot.can({ type: 'quantity.dec' });
export const selectCanRetry = (snapshot: SettlementSnapshot): boolean => snapshot.can({ type: 'user.retry' });
export const selectCanRestart = (snapshot: SettlementSnapshot): boolean => snapshot.can({ type: 'user.restart' });
export const selectCanCancel = (snapshot: SettlementSnapshot): boolean => snapshot.can({ type: 'user.cancel' });

/** The translated reason of a refusal (`buy.settlement.refusal.{key}`); null otherwise. */
export const selectRefusal = (snapshot: SettlementSnapshot): SettlementRefusal | null => snapshot.context.refusal;
export const selectSettlementError = (snapshot: SettlementSnapshot): ErrorInfo | null => snapshot.context.error;
/** The paid order: its id and amount. */
export const selectOrder = (snapshot: SettlementSnapshot): SettleResult | null => snapshot.context.result;
