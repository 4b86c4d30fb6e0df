/**
 * Goods, share pools and bots in the operators' desk (docs/API.md, "Operators: content"): what the seed sets, edited.
 * Amounts arrive as decimal strings and are kept as bigint minor units. A goods item's stock is its ledger counter
 * (`stock:<id>`, which settlement draws from): units members can still buy. Paid orders have drawn theirs already,
 * so setting the stock never takes units from an order; the desk sees those units as `held` beside it.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { bigintText, lockTransaction, queryRows, type Db } from '../db/client';
import { bots, goods, ledgerCounters, sharePools } from '../db/schema';
import { AlreadyDecidedError, InvalidParametersError, NotFoundError } from '../errors';
import { joinStockCounter, stockKey } from '../buy/goods';
import { serverPath } from '../serverFiles';

/** Serialises creating share pools (the next id). */
const POOLS_LOCK = 4_361_000_044;
const goodsMediaDir = serverPath('media', 'goods');

export interface OpsGoods {
  id: string;
  nameZh: string;
  nameEn: string;
  image: string;
  price: string;
  stock: number;
  held: number;
  listed: boolean;
  position: number;
}

const goodsRow = z.object({
  id: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  image: z.string(),
  price: bigintText,
  stock: bigintText,
  held: bigintText,
  listed: z.boolean(),
  position: z.number().int(),
});

/** Goods with their stock and the units of their paid, unshipped orders; one item when `id` is given. */
async function readGoods(db: Db, id?: string): Promise<OpsGoods[]> {
  const rows = await queryRows(
    db,
    sql`SELECT g.id, g.name_zh AS "nameZh", g.name_en AS "nameEn", g.image, g.price, g.listed, g.position,
          coalesce(c.available, 0) AS stock,
          (SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.goods_id = g.id AND o.status = 'paid') AS held
        FROM goods g ${joinStockCounter} ${id === undefined ? sql`` : sql`WHERE g.id = ${id}`}
        ORDER BY g.position, g.id`,
    goodsRow,
  );
  return rows.map((row) => ({ ...row, price: formatMinor(row.price), stock: Number(row.stock), held: Number(row.held) }));
}

/**
 * Every goods item, unlisted too, in list order.
 *
 * @example const list = await listOpsGoods(db);
 */
export async function listOpsGoods(db: Db): Promise<OpsGoods[]> {
  return readGoods(db);
}

export interface GoodsInput {
  id: string;
  nameZh: string;
  nameEn: string;
  image?: string | undefined;
  price: string;
  stock: number;
  stockWas?: number | undefined;
  listed: boolean;
  position?: number | undefined;
}

/** 1001 `image` unless the file is one of server/media/goods/ (the path's pattern is the contract's). */
async function checkImage(image: string): Promise<void> {
  const file = image.slice('/media/goods/'.length);
  try {
    await access(path.join(goodsMediaDir, file));
  } catch {
    throw new InvalidParametersError('image');
  }
}

/**
 * Creates or edits a goods item and sets its stock under the counter's lock (with `stockWas`, 3006 when a sale
 * changed it meanwhile), locking as settlements do: the counter before the goods row.
 *
 * @param tx - a transaction
 * @returns the item before (undefined when new) and after
 * @example const { after } = await putGoods(tx, { id: 'tea', nameZh: '茶', nameEn: 'Tea', image: '/media/goods/longjing-tea.svg', price: '88', stock: 10, listed: true });
 */
export async function putGoods(tx: Db, input: GoodsInput): Promise<{ before: OpsGoods | undefined; after: OpsGoods }> {
  // The ledger engine's order: a settlement holds the counter while it inserts its order, whose foreign key takes a
  // KEY SHARE lock on the goods row. So the counter first, and the goods row FOR NO KEY UPDATE (an edit never changes
  // its id), which that check does not wait for: FOR UPDATE here deadlocked with settlements on PostgreSQL.
  const [counter] = await tx.select().from(ledgerCounters).where(eq(ledgerCounters.key, stockKey(input.id))).for('update');
  const [locked] = await tx.select({ id: goods.id, position: goods.position }).from(goods).where(eq(goods.id, input.id)).for('no key update');
  const [before] = locked ? await readGoods(tx, input.id) : [];
  if (!before && input.image === undefined) throw new InvalidParametersError('image');
  if (input.image !== undefined) await checkImage(input.image);
  if (input.stockWas !== undefined && input.stockWas !== Number(counter?.available ?? 0n)) throw new AlreadyDecidedError();
  const fields = { nameZh: input.nameZh.trim(), nameEn: input.nameEn.trim(), price: toMinor(input.price), listed: input.listed };
  if (locked) {
    await tx
      .update(goods)
      .set({ ...fields, ...(input.image === undefined ? {} : { image: input.image }), ...(input.position === undefined ? {} : { position: input.position }) })
      .where(eq(goods.id, input.id));
  } else {
    const [last] = await tx.select({ position: sql<number>`coalesce(max(${goods.position}), -1)::int` }).from(goods);
    await tx.insert(goods).values({ id: input.id, ...fields, image: input.image ?? '', position: input.position ?? (last?.position ?? -1) + 1 });
  }
  const available = BigInt(input.stock);
  await tx.insert(ledgerCounters).values({ key: stockKey(input.id), available }).onConflictDoUpdate({ target: ledgerCounters.key, set: { available } });
  const [after] = await readGoods(tx, input.id);
  if (!after) throw new Error(`goods ${input.id} not saved`);
  return { before, after };
}

export interface OpsPool {
  id: string;
  name: string;
  totalAmount: string;
  minHolding: string;
}

const poolOf = (row: typeof sharePools.$inferSelect): OpsPool => ({
  id: String(row.id),
  name: row.name,
  totalAmount: formatMinor(row.totalAmount),
  minHolding: formatMinor(row.minHolding),
});

/**
 * The share pools, lowest minimum first (as getSharePools lists them).
 *
 * @example const list = await listOpsPools(db);
 */
export async function listOpsPools(db: Db): Promise<OpsPool[]> {
  const rows = await db.select().from(sharePools).orderBy(asc(sharePools.minHolding), asc(sharePools.id));
  return rows.map(poolOf);
}

/**
 * Creates a share pool (no id) or edits one; 4004 for an unknown id, 1001 `name` for another pool's name.
 *
 * @example const { after } = await putPool(tx, { name: 'Platinum', totalAmount: '5000', minHolding: '10000' });
 */
export async function putPool(
  tx: Db,
  input: { id?: string | undefined; name: string; totalAmount: string; minHolding: string },
  amountChange?: (totalAmount: bigint) => Promise<void>,
): Promise<{ before: OpsPool | undefined; after: OpsPool }> {
  await lockTransaction(tx, POOLS_LOCK);
  const name = input.name.trim();
  const values = { name, totalAmount: toMinor(input.totalAmount), minHolding: toMinor(input.minHolding) };
  const id = input.id === undefined ? undefined : Number(input.id);
  const [before] = id === undefined ? [] : await tx.select().from(sharePools).where(eq(sharePools.id, id));
  if (id !== undefined && !before) throw new NotFoundError();
  // A new daily amount is the operators' policy's to allow (finance's, not content's alone).
  if (before?.totalAmount !== values.totalAmount) await amountChange?.(values.totalAmount);
  const [namesake] = await tx.select({ id: sharePools.id }).from(sharePools).where(eq(sharePools.name, name));
  if (namesake && namesake.id !== id) throw new InvalidParametersError('name');
  const [after] =
    id === undefined
      ? await tx
          .insert(sharePools)
          .values({ id: sql`(SELECT coalesce(max(id), 0) + 1 FROM share_pools)`, ...values })
          .returning()
      : await tx.update(sharePools).set(values).where(eq(sharePools.id, id)).returning();
  if (!after) throw new Error('share pool not saved');
  return { before: before ? poolOf(before) : undefined, after: poolOf(after) };
}

export type BotStatus = 'running' | 'paused' | 'stopped';

export interface OpsBot {
  id: string;
  name: string;
  status: BotStatus;
  profitRate: string;
  createdAt: string;
}

const botOf = (row: typeof bots.$inferSelect): OpsBot => ({
  id: row.id,
  name: row.name,
  status: row.status,
  profitRate: formatMinor(row.profitRate),
  createdAt: row.createdAt.toISOString(),
});

/** A signed decimal ("-2.4") as signed minor units. */
function signedMinor(text: string): bigint {
  return text.startsWith('-') ? -toMinor(text.slice(1)) : toMinor(text);
}

/**
 * Every bot, newest first (as solbotList lists them).
 *
 * @example const list = await listOpsBots(db);
 */
export async function listOpsBots(db: Db): Promise<OpsBot[]> {
  const rows = await db.select().from(bots).orderBy(desc(bots.createdAt), asc(bots.id));
  return rows.map(botOf);
}

/**
 * Creates a bot (dated `now`) or edits one.
 *
 * @example const { after } = await putBot(tx, { id: 'sol-grid-alpha', name: 'SOL Grid Alpha', status: 'paused', profitRate: '-1.5' }, now);
 */
export async function putBot(
  tx: Db,
  input: { id: string; name: string; status: BotStatus; profitRate: string },
  now: Date,
): Promise<{ before: OpsBot | undefined; after: OpsBot }> {
  const [before] = await tx.select().from(bots).where(eq(bots.id, input.id)).for('update');
  const values = { name: input.name.trim(), status: input.status, profitRate: signedMinor(input.profitRate) };
  const [after] = await tx
    .insert(bots)
    .values({ id: input.id, ...values, createdAt: now })
    .onConflictDoUpdate({ target: bots.id, set: values })
    .returning();
  if (!after) throw new Error(`bot ${input.id} not saved`);
  return { before: before ? botOf(before) : undefined, after: botOf(after) };
}
