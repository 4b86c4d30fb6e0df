/**
 * The share-pool payout figure: how long the day's distribution takes when the lowest pool (Starter, minimum
 * 1 WPOS) pays 100,000 holders, end to end as the timer and the operator run it (server/ledger/sharePools.ts
 * distribute: one reading of the balances, the shares, one engine batch in one transaction). Goals:
 * ≤ 5 s on PostgreSQL, ≤ 15 s on PGlite.
 *
 * Set-up: 100,000 members are inserted by SQL (the bench needs holders, not sign-ins) and granted 1..99 WPOS each by
 * one engine request (one fan leg to all of them), so the books hold; its time is printed as a detail. It runs before the
 * ledger's HTTP loads, while no other member holds WPOS, so every holder's share is above 0.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../server/db/client';
import { systemAccountId } from '../server/ledger/accounts';
import { postRequests, type FanLeg } from '../server/ledger/engine';
import { fundingRequest } from '../server/ledger/funding';
import { distribute } from '../server/ledger/poolPayouts';
import type { BenchServer } from './appServer';
import { atMost, detail, emit, ms } from './report';

const HOLDERS = 100_000;
const GOALS_MS = { pglite: 15_000, postgres: 5_000 } as const;

/**
 * The latest UTC day not paid yet by any pool, from today back (a rerun on the same database, or a second sample of
 * the scale bench, picks an earlier day).
 *
 * @param db - the bench server's database
 * @returns YYYY-MM-DD
 * @example
 * const day = await unpaidDay(server.db);
 */
export async function unpaidDay(db: Db): Promise<string> {
  const paid = new Set((await queryRows(db, sql`SELECT DISTINCT day::text AS day FROM share_pool_payouts`, z.object({ day: z.string() }))).map((row) => row.day));
  for (let back = 0; ; back++) {
    const day = new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    if (!paid.has(day)) return day;
  }
}

/**
 * Measures and prints the payout figure of one storage.
 *
 * @param server - a running bench server
 * @param storage - pglite or postgres
 * @returns when printed
 * @example
 * await benchPayout(server, 'postgres');
 */
export async function benchPayout(server: BenchServer, storage: 'pglite' | 'postgres'): Promise<void> {
  const started = performance.now();
  const holders = await queryRows(
    server.db,
    sql`INSERT INTO members (address, invite_code)
        SELECT '0x' || lpad(to_hex(i), 40, '0'), 'H' || lpad(i::text, 7, '0') FROM generate_series(1, ${HOLDERS}::int) AS i
        ON CONFLICT DO NOTHING RETURNING id`,
    z.object({ id: z.number() }),
  );
  const issuance = systemAccountId('WPOS', 'issuance');
  const grant: FanLeg = {
    asset: 'WPOS',
    type: 'reward',
    from: { system: issuance },
    to: { members: holders.map((holder) => holder.id) },
    amounts: holders.map((_, index) => BigInt((index % 99) + 1) * 1_000_000n),
  };
  // The pools pay only what finance funded (a funded account): enough for every pool's day, with the holders' grant.
  const fund = fundingRequest('sharePools', 10n ** 15n, new Date()).legs;
  const [granted] = await postRequests(server.db, [{ now: new Date(), legs: holders.length > 0 ? [grant, ...fund] : fund }]);
  if (granted?.code !== 0) throw new Error(`holder grants refused: ${granted?.code}`);
  detail(`payout.${storage}: ${holders.length} holders inserted and granted WPOS by one engine request in ${ms(performance.now() - started)}`);

  // The set-up wrote 100,000 holders and their accounts in one transaction just now: the table as a payout at
  // 00:00 UTC never finds it. Autovacuum would have seen it since; the figure is the payout's, not the clean-up's.
  await server.db.execute(sql`VACUUM ANALYZE ledger_accounts`);
  const day = await unpaidDay(server.db);
  const now = new Date();
  const payoutStarted = performance.now();
  const run = await distribute(server.db, day, now);
  const elapsed = performance.now() - payoutStarted;
  const [starter] = await queryRows(
    server.db,
    sql`SELECT holders FROM share_pool_payouts d JOIN share_pools p ON p.id = d.pool_id WHERE p.name = 'Starter' AND d.day = ${day}::date`,
    z.object({ holders: z.number() }),
  );
  emit({
    name: `payout.${storage}.100k`,
    value: ms(elapsed),
    floor: 'n/a',
    target: `goal <= ${GOALS_MS[storage] / 1000} s`,
    verdict: atMost(elapsed, GOALS_MS[storage]),
    note: `${day}: Starter paid ${starter?.holders ?? 0} holders; ${run.pools} pool(s) paid ${run.paid} minor units in one transaction`,
  });
}
