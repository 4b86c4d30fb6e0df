/**
 * The scale bench's money figures, taken the same way on the small database and again at size (bench/scale.ts): each
 * money flow's acknowledged rate and p99 through HTTP (the ledger bench's loads, bench/ledger.ts, at 64 connections),
 * a member's records (the first page and a page 90 % back in the hub's history, by keyset), reconcile (its
 * database side against a real node: tokens held are constant, the ledger's sums are what grows), the day's
 * share-pool payout to every holder, and the retention sweep of expired sessions.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { issueToken } from '../server/auth/tokens';
import { reconcile } from '../server/chain/reconcile';
import { queryRows, type Db } from '../server/db/client';
import { goodsById } from '../server/buy/goods';
import { systemAccountId } from '../server/ledger/accounts';
import { postRequests, type FanLeg } from '../server/ledger/engine';
import { fundingRequest } from '../server/ledger/funding';
import { distribute } from '../server/ledger/poolPayouts';
import { sweepRetention } from '../server/retention';
import type { TestChain } from '../tests/server/support/testChain';
import type { BenchServer } from './appServer';
import { flows, httpLoad, HOT_GOODS, prepareMembers, type LoadRun } from './ledger';
import { unpaidDay } from './payout';
import { percentile, timeRequestsPaired, type Latencies, type PairedLatencies } from './latency';

export interface LedgerSample {
  flows: Map<string, LoadRun>;
  records: Map<string, PairedLatencies>;
  reconcile: Latencies;
  payout: { ms: number; holders: number };
  sweep: { ms: number; removed: number };
}

/** The money flows' members, made once (through HTTP) and loaded at both sizes. */
export type FlowMembers = Awaited<ReturnType<typeof prepareMembers>>;

/** Keep-alive connections of each flow's load: the ledger bench's best on PostgreSQL in most runs. */
const CONNECTIONS = 64;

/**
 * The money flows' members and the hub's first records (through the engine, as grants), before the small sample.
 *
 * @param server - the bench server
 * @param hubMemberId - the member whose records are read
 * @returns the members the loads use
 * @example
 * const members = await prepareLedgerSample(server, rootId);
 */
export async function prepareLedgerSample(server: BenchServer, hubMemberId: number): Promise<FlowMembers> {
  // A million WPOS each, enough for the loads: with 100,000,000 each, their holdings would leave a holder of one WPOS
  // a share that rounds down to nothing, and the payout would skip a fifth of the holders.
  const members = await prepareMembers(server, '1000000');
  const now = new Date();
  const rewards = Array.from({ length: 200 }, () => ({
    now,
    legs: [{ asset: 'CREDIT' as const, type: 'reward' as const, from: { system: systemAccountId('CREDIT', 'issuance') }, to: { member: hubMemberId }, amount: 1_000_000n }],
  }));
  // Every member so far holds 1 to 99 WPOS (one fan leg), the small payout's holders; enough in the pools for every
  // payout of the run.
  const everyone = await queryRows(server.db, sql`SELECT id FROM members ORDER BY id`, z.object({ id: z.number() }));
  const holdings: FanLeg = {
    asset: 'WPOS',
    type: 'reward',
    from: { system: systemAccountId('WPOS', 'issuance') },
    to: { members: everyone.map((member) => member.id) },
    amounts: everyone.map((_, index) => BigInt((index % 99) + 1) * 1_000_000n),
  };
  const outcomes = await postRequests(server.db, [...rewards, { now, legs: [holdings] }, fundingRequest('sharePools', 10n ** 15n, now)]);
  if (outcomes.some((outcome) => outcome.code !== 0)) throw new Error('the hub rewards or the pools funding were refused');
  return members;
}

/** The keyset `before` of the page 90 % back in a member's CREDIT records (the id just newer than it). */
async function deepBefore(db: Db, memberId: number): Promise<string> {
  const [row] = await queryRows(
    db,
    sql`SELECT e.id::text AS id FROM ledger_entries e WHERE e.account_id = (SELECT id FROM ledger_accounts WHERE member_id = ${memberId}::int AND asset = 'CREDIT')
        ORDER BY e.id DESC OFFSET (SELECT (version * 9 / 10)::bigint FROM ledger_accounts WHERE member_id = ${memberId}::int AND asset = 'CREDIT') LIMIT 1`,
    z.object({ id: z.string() }),
  );
  if (!row) throw new Error('the hub has no records');
  return row.id;
}

/**
 * Expired sessions, one per member (40 days past their expiry, beyond the 30-day rule), and a live one each.
 *
 * @param db - database handle
 * @returns when written
 * @example
 * await addSessions(server.db);
 */
async function addSessions(db: Db): Promise<void> {
  await db.execute(
    sql`INSERT INTO tokens (hash, member_id, created_at, expires_at)
        SELECT md5(m.id::text || s.kind || random()::text), m.id, now() - s.age, now() - s.age + interval '7 days'
        FROM members m CROSS JOIN (VALUES ('old', interval '47 days'), ('live', interval '1 day')) AS s (kind, age)`,
  );
}

/**
 * One sample of the money figures on the database as it is now.
 *
 * @param server - the bench server
 * @param chain - a node for reconcile's chain side
 * @param members - the flows' members
 * @param hubMemberId - the member whose records are read
 * @param options - seconds per load, requests per latency figure
 * @returns the sample
 * @example
 * const small = await measureLedger(server, chain, members, rootId, { seconds: 10, count: 500 });
 */
export async function measureLedger(
  server: BenchServer,
  chain: TestChain,
  members: FlowMembers,
  hubMemberId: number,
  options: { seconds: number; count: number },
): Promise<LedgerSample> {
  const hot = await goodsById(server.db, HOT_GOODS, 'zh');
  if (!hot) throw new Error(`no goods ${HOT_GOODS}`);
  const loads = flows(members, hot.priceMinor);
  const flowRuns = new Map<string, LoadRun>();
  for (const [name, flow] of Object.entries(loads)) flowRuns.set(name, await httpLoad(server, flow.load, CONNECTIONS, options.seconds));

  const token = await issueToken(server.db, hubMemberId, new Date());
  const get = (path: string) => fetch(`${server.site.baseUrl}${path}`, { headers: { authorization: token } });
  const before = await deepBefore(server.db, hubMemberId);
  const records = new Map<string, PairedLatencies>();
  const live = () => fetch(`${server.site.baseUrl}/api/health/live`);
  const warmup = Math.round(options.count / 5);
  records.set('records.first', await timeRequestsPaired(options.count, warmup, () => get('/api/member/creditRecord?page=1&pageSize=20'), live));
  records.set('records.deep', await timeRequestsPaired(options.count, warmup, () => get(`/api/member/creditRecord?page=1&pageSize=20&before=${before}`), live));

  const reconcileTimes: number[] = [];
  for (let run = 0; run < 7; run++) {
    const started = performance.now();
    await reconcile(server.db, chain.chain, undefined, new Date());
    if (run > 1) reconcileTimes.push(performance.now() - started);
  }
  reconcileTimes.sort((a, b) => a - b);

  await server.db.execute(sql`VACUUM ANALYZE ledger_accounts`);
  const day = await unpaidDay(server.db);
  const payoutStarted = performance.now();
  const paid = await distribute(server.db, day, new Date());
  const payoutMs = performance.now() - payoutStarted;
  const [starter] = await queryRows(server.db, sql`SELECT coalesce(sum(holders), 0)::int AS holders FROM share_pool_payouts WHERE day = ${day}::date`, z.object({ holders: z.number() }));
  if (paid.pools === 0) throw new Error(`the payout of ${day} paid no pool`);

  await addSessions(server.db);
  const sweepStarted = performance.now();
  const swept = await sweepRetention(server.db, new Date());
  const sweepMs = performance.now() - sweepStarted;
  return {
    flows: flowRuns,
    records,
    reconcile: { p50: percentile(reconcileTimes, 50), p99: reconcileTimes.at(-1) ?? 0, max: reconcileTimes.at(-1) ?? 0, count: reconcileTimes.length },
    payout: { ms: payoutMs, holders: starter?.holders ?? 0 },
    sweep: { ms: sweepMs, removed: swept.tokens ?? 0 },
  };
}
