/**
 * Settlement (docs/API.md "Buy flow": order/settle) as a flow of the ledger engine: one `order` leg from the member's
 * credit to the sales account, a draw of the quantity from the goods' stock counter, and the order row with its
 * copy of the address, all in one batch transaction, at most once per request id. The checks come in docs/API.md's order:
 * 4004 (goods unknown or unlisted, or an address not this member's, decided here), then 3002 (stock) and 3001 (balance), which the
 * engine decides under its locks.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { orderStatusSchema, type DeliveryAddress, type MemberOrder } from '../../api-schema/buy';
import { ApiCode } from '../../api-schema/codes';
import { bigintText, queryRows, rowsOf, type Db } from '../db/client';
import { systemAccountId } from '../ledger/accounts';
import { createBatcher } from '../ledger/batcher';
import type { LedgerRequest } from '../ledger/engine';
import { namedStatement } from '../ledger/statements';
import { deliveryRowId } from './addresses';
import { joinStockCounter, pageTotal, stockKey, type Lang } from './goods';

export interface SettlementInput {
  memberId: number;
  goodsId: string;
  deliveryId: string;
  quantity: number;
  requestId: string;
  /** The goods' price in minor units, or null when there is no such goods item. */
  price: bigint | null;
  /** The address as it is now, or null when it is not this member's. */
  address: DeliveryAddress | null;
  now: Date;
}

/**
 * A settlement as the engine's request, answered `{ orderId, amount, status: 'paid' }`.
 *
 * @example
 * const outcome = await ledger.post(() => settlementRequest({ memberId, goodsId, deliveryId, quantity: 1, requestId, price, address, now }), now);
 */
export function settlementRequest(input: SettlementInput): LedgerRequest {
  const { memberId, goodsId, deliveryId, quantity, requestId, price, address, now } = input;
  const key = { scope: `member:${memberId}`, endpoint: 'orderSettle', requestId, body: { goodsId, quantity, deliveryId } };
  if (price === null || address === null) return { key, now, reject: ApiCode.notFound, legs: [] };
  const amount = price * BigInt(quantity);
  return {
    key,
    now,
    legs: [{ asset: 'CREDIT', type: 'order', from: { member: memberId }, to: { system: systemAccountId('CREDIT', 'sales') }, amount }],
    draws: [{ key: stockKey(goodsId), amount: BigInt(quantity) }],
    record: {
      table: 'orders',
      row: { member_id: memberId, goods_id: goodsId, quantity, amount, status: 'paid', address, created_at: now },
    },
    result: { orderId: '$record', amount: formatMinor(amount), status: 'paid' },
  };
}

const p = (name: string) => sql.placeholder(name);

/** What one settlement reads before the engine. */
export interface SettlementLookup {
  memberId: number;
  goodsId: string;
  deliveryId: string;
}

/**
 * The reads of every settlement that arrived together, in one statement: each goods' price and the caller's own
 * address, in the order asked (a deliveryId that is no row's id comes in as null and finds nothing).
 */
const inputsStatement = namedStatement(
  'settlement_inputs',
  sql`SELECT g.price,
        CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('deliveryId', a.id::text, 'name', a.name, 'phone', a.phone,
          'region', a.region, 'detail', a.detail, 'isDefault', a.is_default) END AS address
      FROM unnest(${p('goodsIds')}::text[], ${p('deliveryIds')}::bigint[], ${p('memberIds')}::int[]) WITH ORDINALITY
        AS i(goods_id, delivery_id, member_id, n)
      LEFT JOIN goods g ON g.id = i.goods_id AND g.listed
      LEFT JOIN delivery_addresses a ON a.id = i.delivery_id AND a.member_id = i.member_id
      ORDER BY i.n`,
);

export const addressShape = z.object({ deliveryId: z.string(), name: z.string(), phone: z.string(), region: z.string(), detail: z.string(), isDefault: z.boolean() });
const inputsRow = z.object({ price: bigintText.nullable(), address: addressShape.nullable() });

export interface SettlementInputs {
  /** The goods' price in minor units now, or null for unknown goods. */
  price: bigint | null;
  /** The caller's own address, or null when it is not theirs. */
  address: DeliveryAddress | null;
}

/**
 * What settlements read before the engine, for many at once.
 *
 * @example const [{ price, address }] = await settlementInputs(db, [{ memberId, goodsId: 'longjing-tea', deliveryId: '12' }]);
 */
export async function settlementInputs(db: Db, lookups: readonly SettlementLookup[]): Promise<SettlementInputs[]> {
  const rows = rowsOf(
    await inputsStatement(db).execute({
      goodsIds: lookups.map((lookup) => lookup.goodsId),
      deliveryIds: lookups.map((lookup) => deliveryRowId(lookup.deliveryId)?.toString() ?? null),
      memberIds: lookups.map((lookup) => lookup.memberId),
    }),
    inputsRow,
  );
  if (rows.length !== lookups.length) throw new Error(`settlement inputs answered ${rows.length} rows for ${lookups.length}`);
  return rows.map((row) => ({ price: row.price, address: row.address }));
}

/** Reads settlements' inputs in batches (server/ledger/batcher.ts), as the access hook reads tokens. */
export interface SettlementInputsReader {
  read(lookup: SettlementLookup): Promise<SettlementInputs>;
}

/**
 * Settlement's read, batched: every settlement that arrives in one turn of the event loop shares one statement
 * instead of a round trip each (when every buyer wants the same goods, the read was a third of a settlement's
 * time on PostgreSQL).
 *
 * @param db - database handle
 * @param maxInFlight - reads at once (BATCHES_IN_FLIGHT of the driver)
 * @example const { price, address } = await createSettlementInputsReader(db, 1).read({ memberId, goodsId, deliveryId });
 */
export function createSettlementInputsReader(db: Db, maxInFlight: number): SettlementInputsReader {
  const batcher = createBatcher((lookups: SettlementLookup[]) => settlementInputs(db, lookups), { maxBatch: 128, maxInFlight });
  return { read: (lookup) => batcher.submit(lookup) };
}

const orderRow = z.object({
  id: bigintText,
  goodsId: z.string(),
  name: z.string(),
  image: z.string(),
  price: bigintText,
  stock: bigintText,
  quantity: z.number().int(),
  amount: bigintText,
  status: z.enum(orderStatusSchema.options),
  address: addressShape,
  createdAt: z.coerce.date(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  shippedAt: z.coerce.date().nullable(),
  cancelledAt: z.coerce.date().nullable(),
  total: z.number().int(),
});

/** An order's shipment and cancellation as the API writes them: each field only once it is set. */
export function orderProgress(row: { carrier: string | null; trackingNumber: string | null; shippedAt: Date | null; cancelledAt: Date | null }) {
  return {
    ...(row.carrier === null ? {} : { carrier: row.carrier }),
    ...(row.trackingNumber === null ? {} : { trackingNumber: row.trackingNumber }),
    ...(row.shippedAt === null ? {} : { shippedAt: row.shippedAt.toISOString() }),
    ...(row.cancelledAt === null ? {} : { cancelledAt: row.cancelledAt.toISOString() }),
  };
}

/**
 * A page of the member's orders, newest first, each with its goods as they are now and its address as it was.
 *
 * @example await listOrders(db, { memberId, page: 1, pageSize: 20, lang: 'zh' });
 */
export async function listOrders(db: Db, query: { memberId: number; page: number; pageSize: number; lang: Lang }): Promise<{ list: MemberOrder[]; total: number; page: number; pageSize: number }> {
  const name = query.lang === 'en' ? sql.raw('g.name_en') : sql.raw('g.name_zh');
  const rows = await queryRows(
    db,
    sql`SELECT o.id, o.goods_id AS "goodsId", ${name} AS name, g.image, g.price, coalesce(c.available, 0) AS stock, o.quantity, o.amount,
          o.status, o.address, o.created_at AS "createdAt", o.carrier, o.tracking_number AS "trackingNumber", o.shipped_at AS "shippedAt",
          o.cancelled_at AS "cancelledAt", (count(*) OVER ())::int AS total
        FROM orders o JOIN goods g ON g.id = o.goods_id ${joinStockCounter}
        WHERE o.member_id = ${query.memberId}
        ORDER BY o.id DESC LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`,
    orderRow,
  );
  const total = await pageTotal(rows, query.page, () => countOrders(db, query.memberId));
  return {
    list: rows.map((row) => ({
      orderId: row.id.toString(),
      goods: { id: row.goodsId, name: row.name, image: row.image, price: formatMinor(row.price), stock: Number(row.stock) },
      quantity: row.quantity,
      amount: formatMinor(row.amount),
      status: row.status,
      address: row.address,
      createdAt: row.createdAt.toISOString(),
      ...orderProgress(row),
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function countOrders(db: Db, memberId: number): Promise<number> {
  const [row] = await queryRows(db, sql`SELECT count(*)::int AS total FROM orders WHERE member_id = ${memberId}`, z.object({ total: z.number().int() }));
  return row?.total ?? 0;
}
