/**
 * Settlement (API.md "Buy flow": order/settle) as a flow of the ledger engine: one `order` leg from the member's
 * credit to the sales account, a draw of the quantity from the goods' stock counter, and the order row with its
 * copy of the address, all in one batch transaction, at most once per request id. The checks come in API.md's order:
 * 4004 (goods or address unknown to this member, decided here), then 3002 (stock) and 3001 (balance), which the
 * engine decides under its locks.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import type { DeliveryAddress } from '../../api-schema/buy';
import { ApiCode } from '../../api-schema/codes';
import { bigintText, queryRows, rowsOf, type Db } from '../db/client';
import { systemAccountId } from '../ledger/accounts';
import type { LedgerRequest } from '../ledger/engine';
import { namedStatement } from '../ledger/statements';
import { deliveryRowId } from './addresses';
import { stockKey, type Lang } from './goods';

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
 * const outcome = await desk.post(() => settlementRequest({ memberId, goodsId, deliveryId, quantity: 1, requestId, price, address, now }), now);
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

// One round trip per settlement for what it reads before the engine: the goods' price and the caller's address.
const inputsStatement = namedStatement(
  'settlement_inputs',
  sql`SELECT (SELECT g.price FROM goods g WHERE g.id = ${p('goodsId')}::text) AS price,
        (SELECT json_build_object('deliveryId', a.id::text, 'name', a.name, 'phone', a.phone, 'region', a.region, 'detail', a.detail,
            'isDefault', a.is_default)
          FROM delivery_addresses a
          WHERE a.id = ${p('deliveryId')}::bigint AND a.member_id = ${p('memberId')}::int) AS address`,
);

const addressShape = z.object({ deliveryId: z.string(), name: z.string(), phone: z.string(), region: z.string(), detail: z.string(), isDefault: z.boolean() });
const inputsRow = z.object({ price: bigintText.nullable(), address: addressShape.nullable() });

/**
 * What a settlement reads before the engine: the goods' price now and the caller's own address (null when the goods
 * or the address is unknown to this member).
 *
 * @example const { price, address } = await settlementInputs(db, memberId, 'longjing-tea', '12');
 */
export async function settlementInputs(db: Db, memberId: number, goodsId: string, deliveryId: string): Promise<{ price: bigint | null; address: DeliveryAddress | null }> {
  // A deliveryId that is no row's id is nobody's address.
  if (deliveryRowId(deliveryId) === null) return { price: null, address: null };
  const [row] = rowsOf(await inputsStatement(db).execute({ goodsId, deliveryId, memberId }), inputsRow);
  return { price: row?.price ?? null, address: row?.address ?? null };
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
  status: z.enum(['pending', 'paid', 'shipped', 'failed']),
  address: addressShape,
  createdAt: z.coerce.date(),
  total: z.number().int(),
});

/**
 * A page of the member's orders, newest first, each with its goods as they are now and its address as it was.
 *
 * @example await listOrders(db, { memberId, page: 1, pageSize: 20, lang: 'zh' });
 */
export async function listOrders(db: Db, query: { memberId: number; page: number; pageSize: number; lang: Lang }) {
  const name = query.lang === 'en' ? sql.raw('g.name_en') : sql.raw('g.name_zh');
  const rows = await queryRows(
    db,
    sql`SELECT o.id, o.goods_id AS "goodsId", ${name} AS name, g.image, g.price, coalesce(c.available, 0) AS stock, o.quantity, o.amount,
          o.status, o.address, o.created_at AS "createdAt", (count(*) OVER ())::int AS total
        FROM orders o JOIN goods g ON g.id = o.goods_id LEFT JOIN ledger_counters c ON c.key = 'stock:' || g.id
        WHERE o.member_id = ${query.memberId}
        ORDER BY o.id DESC LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`,
    orderRow,
  );
  const total = rows[0]?.total ?? (await countOrders(db, query.memberId));
  return {
    list: rows.map((row) => ({
      orderId: row.id.toString(),
      goods: { id: row.goodsId, name: row.name, image: row.image, price: formatMinor(row.price), stock: Number(row.stock) },
      quantity: row.quantity,
      amount: formatMinor(row.amount),
      status: row.status,
      address: row.address,
      createdAt: row.createdAt.toISOString(),
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
