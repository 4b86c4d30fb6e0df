/**
 * The settlement's rules as pure functions, so the machine's guards and the page's selectors read the same ones:
 * how many units may be ordered, what they cost and whether the balance covers it (bigint minor units, never
 * floats), which address is chosen after the addresses were read, and what changed since the member last saw the
 * figures.
 */
import type { Answer } from '../shared/answer';
import { formatMinor, parseAmount } from '../shared/amount';
import { isAnswered, maxOrderQuantity, type AddressList, type DeliveryAddress, type Goods } from './buyContract';

/** What the settlement page shows and the member decides on. */
export interface CheckoutFacts {
  goods: Goods | null;
  addresses: readonly DeliveryAddress[];
  /** The chosen address: null while the member has none; one chosen elsewhere counts once it is in `addresses`. */
  deliveryId: string | null;
  /** meInfo creditBalance, a decimal string; null until known. */
  balance: string | null;
  quantity: number;
  /** True when the price, the quantity or the chosen address changed since the member last confirmed. */
  changed: boolean;
}

/** What the loadCheckout actor answers: each call's envelope, meInfo's creditBalance read with the goods every time. */
export interface CheckoutLoad {
  goods: Answer<Goods>;
  addresses: Answer<AddressList>;
  balance: Answer<string>;
}

/** Why the member cannot confirm yet, in the order the page says it. */
export type CheckoutBlocker = 'notLoaded' | 'soldOut' | 'needsAddress' | 'balanceShort';

/** The most units of these goods one order may hold: min(stock, 999). */
export const quantityLimit = (goods: Goods): number => Math.min(goods.stock, maxOrderQuantity);

/** A quantity brought within 1..limit; 1 when nothing is left (the sold-out blocker says so). */
export const clampQuantity = (quantity: number, goods: Goods): number => Math.max(1, Math.min(Math.trunc(quantity), quantityLimit(goods)));

/** price × quantity in minor units; null before the goods are known. */
export function orderTotal(facts: Pick<CheckoutFacts, 'goods' | 'quantity'>): bigint | null {
  const price = facts.goods ? parseAmount(facts.goods.price) : null;
  return price === null ? null : price * BigInt(facts.quantity);
}

/** How much credit is missing for the order, in minor units; 0n when the balance covers it, null while unknown. */
export function shortfallOf(facts: CheckoutFacts): bigint | null {
  const total = orderTotal(facts);
  const balance = facts.balance === null ? null : parseAmount(facts.balance);
  if (total === null || balance === null) return null;
  return total > balance ? total - balance : 0n;
}

/** Everything that keeps the member from confirming; empty when the order can be paid. */
export function blockersOf(facts: CheckoutFacts): CheckoutBlocker[] {
  const shortfall = shortfallOf(facts);
  if (!facts.goods || shortfall === null) return ['notLoaded'];
  const blockers: CheckoutBlocker[] = [];
  if (facts.quantity > quantityLimit(facts.goods)) blockers.push('soldOut');
  // An address counts once this page has read it: one chosen elsewhere and not (yet) read is no address.
  if (!facts.addresses.some((address) => address.deliveryId === facts.deliveryId)) blockers.push('needsAddress');
  if (shortfall > 0n) blockers.push('balanceShort');
  return blockers;
}

/** The address to preselect: the one wanted when the list has it, else the default (listed first), else none. */
export function chooseAddress(list: readonly DeliveryAddress[], wanted: string | null): string | null {
  if (wanted !== null && list.some((address) => address.deliveryId === wanted)) return wanted;
  return (list.find((address) => address.isDefault) ?? list[0])?.deliveryId ?? null;
}

const samePrice = (a: Goods, b: Goods) => parseAmount(a.price) === parseAmount(b.price);

/**
 * The facts after a load: new goods, addresses and balance, the quantity kept within the new stock, the chosen
 * address kept when it is still there. `changed` turns on when a figure the member saw moved: the price, the
 * quantity (less stock than ordered), or the chosen address (deleted meanwhile). Stock that still covers the order
 * is no change the member must confirm again.
 *
 * @example applyLoad(facts, { goods: { code: 0, result: cheaper }, addresses, balance }).changed // true
 */
export function applyLoad(facts: CheckoutFacts, load: CheckoutLoad): CheckoutFacts {
  if (!isAnswered(load.goods) || !isAnswered(load.addresses)) return facts;
  const goods = load.goods.result;
  const addresses = load.addresses.result.list;
  const deliveryId = chooseAddress(addresses, facts.deliveryId);
  const quantity = clampQuantity(facts.quantity, goods);
  const balance = isAnswered(load.balance) ? load.balance.result : facts.balance;
  const before = facts.goods;
  const moved = before !== null && (!samePrice(before, goods) || quantity !== facts.quantity || (facts.deliveryId !== null && deliveryId !== facts.deliveryId));
  return { goods, addresses, deliveryId, balance, quantity, changed: facts.changed || moved };
}

/** A minor-unit figure as the API's decimal string. */
export const formatFigure = (units: bigint | null): string | null => (units === null ? null : formatMinor(units));
