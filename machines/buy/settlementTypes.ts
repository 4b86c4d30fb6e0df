/**
 * The settlement machine's types: what the page starts it with, what it keeps, the events it takes and what its
 * two actors (loadCheckout, settle) take and answer. Apart from the machine so its states' files can share them.
 */
import type { Answer } from '../shared/answer';
import type { ErrorInfo } from '../shared/errorInfo';
import type { SubmitInput } from '../shared/moneyFlow';
import type { SettleResult } from './buyContract';
import type { CheckoutFacts } from './checkout';

export interface SettlementInput {
  /** The route's goods id; none means the member has not picked goods yet. */
  goodsId?: string | null;
  /** An address chosen in the address book before coming (back) here; the default otherwise. */
  deliveryId?: string | null;
}

/** Why the server refused for good (nothing moved, a retry answers the same): the key of the translated reason. */
export type SettlementRefusal = 'goodsOrAddressGone';

export interface SettlementContext extends CheckoutFacts {
  goodsId: string | null;
  /** The id of the confirmed request, reused by every retry; null until the member confirms. */
  requestId: string | null;
  result: SettleResult | null;
  /** The server's or the network's answer the member last got. */
  error: ErrorInfo | null;
  refusal: SettlementRefusal | null;
}

export type SettlementEvent =
  | { type: 'user.pickGoods'; goodsId: string }
  | { type: 'quantity.inc' }
  | { type: 'quantity.dec' }
  | { type: 'quantity.set'; quantity: number }
  | { type: 'user.chooseAddress'; deliveryId: string }
  | { type: 'user.confirm'; requestId: string }
  | { type: 'user.retry' }
  | { type: 'user.cancel' }
  | { type: 'user.restart' };

export interface LoadCheckoutInput {
  goodsId: string;
}

/** What orderSettle takes besides the request id. */
export interface SettleBody {
  goodsId: string;
  quantity: number;
  deliveryId: string;
}

export type SettleAnswer = Answer<SettleResult>;
export type SettleInput = SubmitInput<SettleBody>;
