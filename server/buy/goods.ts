/**
 * Goods of the buy flow (docs/API.md "Buy flow"): the list in its seeded order and one item, each with its stock, which
 * is the ledger counter `stock:<id>` (settlement draws from it through the ledger engine).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { bigintText, queryRows, type Db } from '../db/client';

export type Lang = 'zh' | 'en';

export interface GoodsItem {
  id: string;
  name: string;
  image: string;
  price: string;
  stock: number;
}

const STOCK_PREFIX = 'stock:';

/** The ledger counter that holds a goods item's stock. */
export const stockKey = (goodsId: string): string => `${STOCK_PREFIX}${goodsId}`;

/** Joins goods rows `g` to their stock counters `c` by stockKey's rule (a goods item without one has none). */
export const joinStockCounter = sql`LEFT JOIN ledger_counters c ON c.key = ${STOCK_PREFIX} || g.id`;

/**
 * A page's total: the window count its rows carry, or for an empty page 0 on the first page and a count past the end.
 *
 * @example const total = await pageTotal(rows, query.page, () => countGoods(db));
 */
export async function pageTotal(rows: readonly { total?: number | undefined }[], page: number, count: () => Promise<number>): Promise<number> {
  return rows[0]?.total ?? (page === 1 ? 0 : count());
}

const goodsRow = z.object({ id: z.string(), name: z.string(), image: z.string(), price: bigintText, stock: bigintText, total: z.number().int().optional() });

const toItem = (row: z.infer<typeof goodsRow>): GoodsItem => ({
  id: row.id,
  name: row.name,
  image: row.image,
  price: formatMinor(row.price),
  stock: Number(row.stock),
});

const nameColumn = (lang: Lang) => (lang === 'en' ? sql.raw('g.name_en') : sql.raw('g.name_zh'));

/**
 * A page of the listed goods in list order (an operator's unlisted ones are hidden).
 *
 * @example await listGoods(db, { page: 1, pageSize: 20, lang: 'en' });
 */
export async function listGoods(db: Db, query: { page: number; pageSize: number; lang: Lang }) {
  const rows = await queryRows(
    db,
    sql`SELECT g.id, ${nameColumn(query.lang)} AS name, g.image, g.price, coalesce(c.available, 0) AS stock, (count(*) OVER ())::int AS total
        FROM goods g ${joinStockCounter} WHERE g.listed
        ORDER BY g.position, g.id LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`,
    goodsRow,
  );
  const total = await pageTotal(rows, query.page, () => countGoods(db));
  return { list: rows.map(toItem), total, page: query.page, pageSize: query.pageSize };
}

async function countGoods(db: Db): Promise<number> {
  const [row] = await queryRows(db, sql`SELECT count(*)::int AS total FROM goods WHERE listed`, z.object({ total: z.number().int() }));
  return row?.total ?? 0;
}

/**
 * One listed goods item with its price in minor units, or null (unknown or unlisted).
 *
 * @example const goods = await goodsById(db, 'longjing-tea', 'zh');
 */
export async function goodsById(db: Db, id: string, lang: Lang): Promise<(GoodsItem & { priceMinor: bigint }) | null> {
  const [row] = await queryRows(
    db,
    sql`SELECT g.id, ${nameColumn(lang)} AS name, g.image, g.price, coalesce(c.available, 0) AS stock
        FROM goods g ${joinStockCounter} WHERE g.id = ${id} AND g.listed`,
    goodsRow,
  );
  return row ? { ...toItem(row), priceMinor: row.price } : null;
}
