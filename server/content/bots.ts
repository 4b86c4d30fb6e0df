/** The bots list (docs/API.md, "Public data": solbotList). */
import { asc, count, desc } from 'drizzle-orm';
import type { z } from 'zod';
import type { solbotList } from '../../api-schema/dapp';
import type { Db } from '../db/client';
import { bots } from '../db/schema';
import { formatMinor } from '../../api-schema/amount';

export interface BotPageQuery {
  page: number;
  pageSize: number;
}

/**
 * One page of bots, newest first (then by id, so the order is stable); a page past the end is empty, with the
 * same total. profitRate is the stored millionths of a percent as a decimal string.
 *
 * @param db - database handle
 * @param query - 1-based page and page size
 * @returns the page
 * @example
 * const page = await listBots(db, { page: 1, pageSize: 20 });
 */
export async function listBots(db: Db, query: BotPageQuery): Promise<z.output<typeof solbotList.result>> {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(bots)
      .orderBy(desc(bots.createdAt), asc(bots.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(bots),
  ]);
  return {
    list: rows.map((row) => ({
      id: row.id,
      name: row.name,
      status: row.status,
      profitRate: formatMinor(row.profitRate),
      createdAt: row.createdAt.toISOString(),
    })),
    total: counted?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}
