/**
 * Orders as the operators' desk sees and moves them (docs/API.md, "Operators: orders"): the list by status, shipping
 * with a carrier and tracking number, and the cancellation of an unshipped order with its refund through the ledger
 * engine. Ship and cancel lock the order's row first, so of a ship and a cancel of one order exactly one wins; the
 * refund runs in the cancellation's transaction, so an order is cancelled and refunded together, once.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import type { opsOrderSchema, opsOrderStatusSchema } from '../../api-schema/opsOrders';
import { addressShape, orderProgress } from '../buy/orders';
import { stockKey } from '../buy/goods';
import { bigintText, queryRows, type Db } from '../db/client';
import { AlreadyDecidedError, errorOfApiCode, NotFoundError } from '../errors';
import { systemAccountId } from '../ledger/accounts';
import { postRequests, type LedgerRequest } from '../ledger/engine';

export type OpsOrder = z.infer<typeof opsOrderSchema>;
type OpsOrderStatus = z.infer<typeof opsOrderStatusSchema>;

const orderRow = z.object({
  id: bigintText,
  memberId: z.number().int(),
  address: z.string(),
  goodsId: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  image: z.string(),
  quantity: z.number().int(),
  amount: bigintText,
  status: z.enum(['pending', 'paid', 'shipped', 'failed', 'cancelled']),
  delivery: addressShape,
  createdAt: z.coerce.date(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  shippedAt: z.coerce.date().nullable(),
  cancelledAt: z.coerce.date().nullable(),
  cancelReason: z.string().nullable(),
});
type OrderRow = z.infer<typeof orderRow>;

/** Orders `o` with their member `m` and goods `g`. */
const ordersFrom = sql`orders o JOIN members m ON m.id = o.member_id JOIN goods g ON g.id = o.goods_id`;

/** Orders filtered by `where`; `lock` takes the order's row for the transaction. */
async function orderRows(db: Db, where: SQL, limit: number, lock = false): Promise<OrderRow[]> {
  return queryRows(
    db,
    sql`SELECT o.id, o.member_id AS "memberId", m.address, o.goods_id AS "goodsId", g.name_zh AS "nameZh", g.name_en AS "nameEn", g.image,
          o.quantity, o.amount, o.status, o.address AS delivery, o.created_at AS "createdAt", o.carrier, o.tracking_number AS "trackingNumber",
          o.shipped_at AS "shippedAt", o.cancelled_at AS "cancelledAt", o.cancel_reason AS "cancelReason"
        FROM ${ordersFrom}
        WHERE ${where} ORDER BY o.id DESC LIMIT ${limit}::int ${lock ? sql`FOR UPDATE OF o` : sql``}`,
    orderRow,
  );
}

const viewOf = (row: OrderRow): OpsOrder => ({
  id: row.id.toString(),
  address: row.address,
  goods: { id: row.goodsId, name: { zh: row.nameZh, en: row.nameEn }, image: row.image },
  quantity: row.quantity,
  amount: formatMinor(row.amount),
  status: row.status,
  delivery: row.delivery,
  createdAt: row.createdAt.toISOString(),
  ...orderProgress(row),
  ...(row.cancelReason === null ? {} : { cancelReason: row.cancelReason }),
});

const countRow = z.object({ total: bigintText });

export interface OrderQuery {
  status?: OpsOrderStatus | undefined;
  /** The member's EIP-55 address. */
  address?: string | undefined;
  /** The last id of the page before: this page starts below it. */
  cursor?: bigint | undefined;
  limit: number;
}

/**
 * A page of orders, newest first.
 *
 * @param db - database handle
 * @param query - filters, cursor and page size
 * @returns the page, the cursor of the next one (null when this is the last) and how many match the filters on all pages
 * @example
 * const toShip = await listOpsOrders(db, { status: 'paid', limit: 50 });
 */
export async function listOpsOrders(db: Db, query: OrderQuery): Promise<{ list: OpsOrder[]; nextCursor: string | null; total: number }> {
  const where: SQL[] = [sql`true`];
  if (query.status) where.push(sql`o.status = ${query.status}::text`);
  if (query.address !== undefined) where.push(sql`m.address = ${query.address}::text`);
  const filters = sql.join(where, sql` AND `);
  const paged = query.cursor === undefined ? filters : sql`${filters} AND o.id < ${query.cursor.toString()}::bigint`;
  // One more than the page: whether a next page exists.
  const rows = await orderRows(db, paged, query.limit + 1);
  const [counted] = await queryRows(db, sql`SELECT count(*) AS total FROM ${ordersFrom} WHERE ${filters}`, countRow);
  const list = rows.slice(0, query.limit).map(viewOf);
  return { list, nextCursor: rows.length > query.limit ? (list.at(-1)?.id ?? null) : null, total: Number(counted?.total ?? 0n) };
}

/** The order, its row locked until the transaction ends (4004 when there is none). */
async function lockedOrder(tx: Db, id: bigint): Promise<OrderRow> {
  const [row] = await orderRows(tx, sql`o.id = ${id.toString()}::bigint`, 1, true);
  if (!row) throw new NotFoundError();
  return row;
}

/** An act on an order: the order before and after (the same when the act was done already). */
export interface OrderChange {
  before: OpsOrder;
  after: OpsOrder;
  changed: boolean;
}

/**
 * Ships a paid order. The same shipment again changes nothing; another carrier or number, or an order not paid, is
 * 3006.
 *
 * @param tx - a transaction (the audit row's): the order's row stays locked until it ends
 * @param input - the order, its carrier and tracking number (trimmed), and when
 * @returns the order before and after
 * @throws NotFoundError (4004), AlreadyDecidedError (3006)
 * @example
 * await db.transaction((tx) => shipOrder(tx, { id: 7n, carrier: 'SF Express', trackingNumber: 'SF1234567890', now }));
 */
export async function shipOrder(tx: Db, input: { id: bigint; carrier: string; trackingNumber: string; now: Date }): Promise<OrderChange> {
  const row = await lockedOrder(tx, input.id);
  const before = viewOf(row);
  if (row.status === 'shipped' && row.carrier === input.carrier && row.trackingNumber === input.trackingNumber) return { before, after: before, changed: false };
  if (row.status !== 'paid') throw new AlreadyDecidedError();
  await tx.execute(
    sql`UPDATE orders SET status = 'shipped', carrier = ${input.carrier}, tracking_number = ${input.trackingNumber}, shipped_at = ${input.now.toISOString()}::timestamptz
        WHERE id = ${input.id.toString()}::bigint`,
  );
  return { before, after: viewOf(await lockedOrder(tx, input.id)), changed: true };
}

/**
 * An order's refund as the engine's request: its amount from sales back to the member's credit (an `order` record
 * the member sees) and its units back to the goods' stock (a draw of minus the quantity), at most once per order.
 *
 * @param order - the order
 * @param now - when
 * @returns the request
 * @example
 * await postRequests(tx, [refundRequest({ id: 7n, memberId: 3, goodsId: 'longjing-tea', quantity: 2, amount: 20_000_000n }, now)]);
 */
export function refundRequest(order: { id: bigint; memberId: number; goodsId: string; quantity: number; amount: bigint }, now: Date): LedgerRequest {
  return {
    key: { scope: 'ops', endpoint: 'orderRefund', requestId: `order:${order.id}`, body: { id: order.id.toString() } },
    now,
    legs: [{ asset: 'CREDIT', type: 'order', from: { system: systemAccountId('CREDIT', 'sales') }, to: { member: order.memberId }, amount: order.amount, memo: `refund:${order.id}` }],
    draws: [{ key: stockKey(order.goodsId), amount: -BigInt(order.quantity) }],
  };
}

/** Decides, under the order's lock, whether its refund goes ahead now or waits (the operators' policy). */
export type RefundGate = (order: { memberId: number; address: string; amount: bigint }) => Promise<'proceed' | 'wait'>;

/**
 * Cancels a paid order and refunds it in the same transaction. Cancelled already for the same reason: nothing moves
 * again; for another reason, or shipped: 3006.
 *
 * @param tx - a transaction (runOnce's, with the audit row): the order's row stays locked until it ends
 * @param input - the order, the reason (trimmed), when
 * @param gate - the operators' policy's say, under the order's lock: 'wait' leaves it paid (waiting: true)
 * @returns the order before and after
 * @throws NotFoundError (4004), AlreadyDecidedError (3006), or the engine's refusal
 * @example
 * await cancelOrder(tx, { id: 7n, reason: 'out of stock at the warehouse', now });
 */
export async function cancelOrder(tx: Db, input: { id: bigint; reason: string; now: Date }, gate?: RefundGate): Promise<OrderChange & { waiting?: true }> {
  const row = await lockedOrder(tx, input.id);
  const before = viewOf(row);
  if (row.status === 'cancelled' && row.cancelReason === input.reason) return { before, after: before, changed: false };
  if (row.status !== 'paid') throw new AlreadyDecidedError();
  if (gate && (await gate({ memberId: row.memberId, address: row.address, amount: row.amount })) === 'wait') return { before, after: before, changed: false, waiting: true };
  await tx.execute(
    sql`UPDATE orders SET status = 'cancelled', cancelled_at = ${input.now.toISOString()}::timestamptz, cancel_reason = ${input.reason}
        WHERE id = ${input.id.toString()}::bigint`,
  );
  const [outcome] = await postRequests(tx, [refundRequest({ ...row, id: input.id }, input.now)]);
  if (outcome?.code !== ApiCode.ok) throw errorOfApiCode((outcome?.code ?? ApiCode.internal) as ApiCodeValue);
  return { before, after: viewOf(await lockedOrder(tx, input.id)), changed: true };
}
