/**
 * What the buy flow's three machines (settlement, address form, address book) read from the contract
 * (api-schema/buy.ts, docs/API.md "Buy flow and shipping addresses"), and the few pieces they share: answers, the
 * server's refusal as a plain { name, code }, and the quantity one order may hold.
 */
import type * as z from 'zod/mini';
import type { deliveryList, goodsSchema, orderSettle } from '../../api-schema/buy';
import { ApiCode } from '../../api-schema/codes';
import type { Answer } from '../shared/answer';
import type { ErrorInfo } from '../shared/errorInfo';
import { ApiErrorName } from '../shared/errorNames';

export type { DeliveryAddress } from '../../api-schema/buy';
export type { AddressField, AddressFieldProblem } from '../../api-schema/address';

/** One goods item as goodsDetail answers it: price a decimal string, stock a whole number. */
export type Goods = z.output<typeof goodsSchema>;
/** What deliveryList answers: the member's addresses, the default first. */
export type AddressList = z.output<typeof deliveryList.result>;
/** What orderSettle answers: `{ orderId, amount, status }`. */
export type SettleResult = z.output<typeof orderSettle.result>;

/**
 * The most units one order may hold (orderSettle's quantity is 1..999); buyContract.test.ts beside it ties it
 * to the contract's schema.
 */
export const maxOrderQuantity = 999;

/** The server's answer as a machine keeps it; the UI shows `Common.{code}`. */
export const apiError = (code: number): ErrorInfo => ({ name: ApiErrorName, code });

/** True when an answer carries its result (code 0). */
export const isAnswered = <T>(answer: Answer<T>): answer is { code: 0; result: T } => answer.code === ApiCode.ok && answer.result !== null;

/** A guard on an answer's code, for transitions whose params are `{ code }`. */
export const codeIn =
  (...codes: readonly number[]) =>
  (_: unknown, params: { code: number }): boolean =>
    codes.includes(params.code);
