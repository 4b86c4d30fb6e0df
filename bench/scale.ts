/**
 * The scale bench (`--only scale`, PostgreSQL): the member's calls on a small tree and again at 1,000,000 members,
 * measured in the same run, each large figure against 1.5 x its small one. The tree is a chain of 5,000 below the
 * root (its deepest member 5,000 levels down) and then a random tree of the rest (each new member below a random
 * earlier one: about 15-30 levels), written set-based (bench/treeSeed.ts) in minutes, not through HTTP.
 */
import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { issueToken } from '../server/auth/tokens';
import { openDatabase, queryRows } from '../server/db/client';
import { members } from '../server/db/schema';
import { SEED_INVITER } from '../server/seed/content';
import { startBenchServer, type BenchServer } from './appServer';
import { timeRequestsPaired, type PairedLatencies } from './latency';
import { atMost, detail, emit, ms, rate } from './report';
import { joinsPerSecond, memberId, runJoins } from './rush';
import { addChain, addRandomTree, type ChainMember } from './treeSeed';
import { addLedgerHistory } from './ledgerSeed';
import { measureLedger, prepareLedgerSample, type LedgerSample } from './scaleLedger';
import { ledgerSummary } from '../server/ledger/queries';
import { startTestChain } from '../tests/server/support/testChain';

const CHAIN_LENGTH = 5_000;
const MEMBERS = 1_000_000;
/** A member call's p99 at size may be this many times its small-data p99. */
const FLAT_RATIO = 1.5;
/** Team search's p99 at size (ADR 0037): the ceiling every other flow keeps during a sign-up rush. */
const SEARCH_P99_CEILING_MS = 50;
/** Rounds of the ledger's ring: with each member's two grants and the hub's rewards, 50,000,000 entries at 1,000,000 members. */
const LEDGER_ROUNDS = 23;
const HUB_ENTRIES = 2_000_000;
const PAYOUT_GOAL_MS = 60_000;
const RECONCILE_GOAL_MS = 5_000;

interface Sample {
  /** Members in the database when the sample was taken. */
  members: number;
  latencies: Map<string, PairedLatencies>;
  joins: number;
}

/** Addresses of `count` members picked at random (for search keywords that find someone). */
async function someAddresses(server: BenchServer, count: number): Promise<string[]> {
  const rows = await queryRows(
    server.db,
    sql`SELECT address FROM ${members} ORDER BY random() LIMIT ${count}`,
    z.object({ address: z.string() }),
  );
  return rows.map((row) => row.address);
}

/** A keyword as members type them: 4 to 10 digits of an address, from its start or anywhere. */
function keywordOf(address: string): string {
  const length = 4 + randomInt(7);
  const start = randomInt(2) === 0 ? 2 : 2 + randomInt(40 - length + 1);
  return address.slice(start, start + length);
}

/** How many members the database holds. */
async function memberCount(server: BenchServer): Promise<number> {
  const [row] = await queryRows(server.db, sql`SELECT count(*)::int AS count FROM ${members}`, z.object({ count: z.number() }));
  return row?.count ?? 0;
}

async function measure(server: BenchServer, rootId: number, chain: readonly ChainMember[], quick: boolean): Promise<Sample> {
  // 2,000 calls: the p99 is the 20th slowest, not the 5th (one pause of the host moved a 500-call p99 by 1.7x).
  const count = quick ? 100 : 2_000;
  const warmup = quick ? 20 : 100;
  const deepest = chain.at(-1);
  const aboveDeepest = chain.at(-2);
  if (!deepest || !aboveDeepest) throw new Error('no chain');
  const memberTotal = await memberCount(server);
  const rootToken = await issueToken(server.db, rootId, new Date());
  const deepToken = await issueToken(server.db, aboveDeepest.id, new Date());
  const get = (token: string, path: string) => fetch(`${server.site.baseUrl}${path}`, { headers: { authorization: token } });
  const sample = await someAddresses(server, 2_000);
  if (sample.length === 0) throw new Error('no members to search for');
  const latencies = new Map<string, PairedLatencies>();
  const live = () => fetch(`${server.site.baseUrl}/api/health/live`);
  latencies.set('meInfo.root', await timeRequestsPaired(count, warmup, () => get(rootToken, '/api/member/meInfo'), live));
  latencies.set('meInfo.deep', await timeRequestsPaired(count, warmup, () => get(deepToken, '/api/member/meInfo'), live));
  latencies.set('teamPage.root', await timeRequestsPaired(count, warmup, () => get(rootToken, '/api/member/team?page=1&pageSize=20'), live));
  // The root opening the team of the member 4,999 levels below it.
  latencies.set('teamPage.deep', await timeRequestsPaired(count, warmup, () => get(rootToken, `/api/member/team?page=1&pageSize=20&of=${aboveDeepest.address}`), live));
  latencies.set(
    'teamSearch.root',
    await timeRequestsPaired(count, warmup, (index) => get(rootToken, `/api/member/team/search?keyword=${keywordOf(sample[index % sample.length] ?? '')}`), live),
  );
  latencies.set('teamSearch.deep', await timeRequestsPaired(count, warmup, () => get(deepToken, `/api/member/team/search?keyword=${keywordOf(sample[randomInt(sample.length)] ?? '')}`), live));
  const { byLabel } = await runJoins(server, rootToken, [{ label: 'depth5000', inviteCode: deepest.inviteCode }], quick ? 300 : 2_000);
  const joins = byLabel.get('depth5000');
  if (!joins || joins.bound !== joins.joins) throw new Error('joins at depth 5,000 did not all bind');
  return { members: memberTotal, latencies, joins: joinsPerSecond(joins) };
}

/**
 * Runs the scale bench when DATABASE_URL names a PostgreSQL database (it is emptied and filled).
 *
 * @param databaseUrl - the database, or undefined to skip
 * @param quick - fewer requests and 100,000 members (figures not comparable)
 * @returns when printed
 * @example
 * await benchScale(process.env.DATABASE_URL, false);
 */
export async function benchScale(databaseUrl: string | undefined, quick: boolean): Promise<void> {
  if (!databaseUrl) {
    detail('scale: skipped (DATABASE_URL unset; the scale bench runs on PostgreSQL)');
    return;
  }
  await emptyDatabase(databaseUrl);
  const server = await startBenchServer({ url: databaseUrl });
  const testChain = await startTestChain({ decimals: 6 });
  try {
    const rootId = await memberId(server, SEED_INVITER.inviteCode);
    let started = performance.now();
    const chain = await addChain(server.db, rootId, CHAIN_LENGTH, 'SC');
    detail(`scale.seed: a chain of ${CHAIN_LENGTH} in ${ms(performance.now() - started)}`);
    const flowMembers = await prepareLedgerSample(server, rootId);
    const ledgerOptions = { seconds: quick ? 3 : 8, count: quick ? 100 : 2_000 };
    await settleWrites(server);
    const small = await measure(server, rootId, chain, quick);
    const smallLedger = await measureLedger(server, testChain, flowMembers, rootId, ledgerOptions);
    const smallEntries = await entryCount(server);

    const target = quick ? 100_000 : MEMBERS;
    started = performance.now();
    const added = await addRandomTree(server.db, rootId, target - (await memberCount(server)), 'SR');
    detail(`scale.seed: ${added.toLocaleString('en-US')} more members (a random tree below the root), set-based, in ${ms(performance.now() - started)}`);
    started = performance.now();
    const history = await addLedgerHistory(server.db, {
      rounds: quick ? 2 : LEDGER_ROUNDS,
      hubMemberId: rootId,
      hubEntries: quick ? 200_000 : HUB_ENTRIES,
      onStep: (name, took) => detail(`scale.seed.ledger: ${name} in ${ms(took)}`),
    });
    detail(
      `scale.seed: ${history.entries.toLocaleString('en-US')} ledger entries (${history.transfers.toLocaleString('en-US')} transfers, ` +
        `${history.rounds} rounds of a ring of ${history.accounts.toLocaleString('en-US')} accounts), set-based, in ${ms(performance.now() - started)}`,
    );
    await expectBooks(server, 'after the seed');
    await settleWrites(server);
    const large = await measure(server, rootId, chain, quick);
    const largeLedger = await measureLedger(server, testChain, flowMembers, rootId, ledgerOptions);
    const largeEntries = await entryCount(server);
    await expectBooks(server, 'after the large sample');
    const sizes = (sample: Sample) => sample.members.toLocaleString('en-US');
    const entrySizes = (entries: number) => `${entries.toLocaleString('en-US')} entries`;
    emitLedger(smallLedger, largeLedger, `${sizes(small)} members, ${entrySizes(smallEntries)}`, `${sizes(large)} members, ${entrySizes(largeEntries)}`);

    for (const [name, big] of large.latencies) {
      const base = small.latencies.get(name);
      if (base) emitPaired(name, base, big, `${sizes(large)} members`);
    }
    emit({
      name: 'scale.joins.depth5000',
      value: rate(large.joins, 'joins'),
      floor: `${rate(small.joins, 'joins')} (the same rush at ${sizes(small)} members, same run)`,
      target: 'goal >= 500 joins/s',
      verdict: large.joins >= 500 ? 'PASS' : 'MISS',
      note: `${(large.joins / small.joins).toFixed(2)}x; 64 connections, ${sizes(large)} members`,
    });
  } finally {
    await testChain.stop();
    await server.close();
  }
}

/**
 * A one-at-a-time call's p99 at size beside its small one. The verdict is on the ratio measured in units of the
 * reference call interleaved with each (GET /api/health/live, whose cost does not grow with the data): a host that
 * was slower during one sample than the other moves both, as it moved the raw ratio by up to 2.6x between runs.
 */
function emitPaired(name: string, small: PairedLatencies, large: PairedLatencies, size: string): void {
  const raw = large.call.p99 / small.call.p99;
  const host = large.reference.p50 / small.reference.p50;
  const ratio = raw / host;
  // Team search grows with its matches, not with the tree (docs/decisions/0037-team-search-goal-a-ceiling.md):
  // its goal is a ceiling, the ratio still printed.
  const ceiling = name.startsWith('teamSearch.') ? SEARCH_P99_CEILING_MS : undefined;
  emit({
    name: `scale.${name}.p99`,
    value: ms(large.call.p99),
    floor: `${ms(small.call.p99)} (the same call small, same run)`,
    target: ceiling === undefined ? `goal <= ${FLAT_RATIO} x small` : `goal <= ${ms(ceiling)} (ADR 0037)`,
    verdict: (ceiling === undefined ? ratio <= FLAT_RATIO || large.call.p99 <= 1 : large.call.p99 <= ceiling) ? 'PASS' : 'MISS',
    note:
      `${ratio.toFixed(2)}x in host units (raw ${raw.toFixed(2)}x; the interleaved health call's p50 ${ms(large.reference.p50)} vs ${ms(small.reference.p50)}); ` +
      `p50 ${ms(large.call.p50)} (small ${ms(small.call.p50)}), ${large.call.count} calls one at a time, ${size}`,
  });
}

/**
 * Drops every table, function and migration record of the database, so a run starts where the last one did not
 * leave it (the seed's ids and addresses would collide with a previous run's; a million members left by this
 * section made the PostgreSQL sections' payout pay 1,100,000 holders instead of 100,000).
 *
 * @param url - DATABASE_URL (a bench's own database: everything in it goes)
 * @returns when empty
 * @example
 * await emptyDatabase(process.env.DATABASE_URL);
 */
export async function emptyDatabase(url: string): Promise<void> {
  const database = await openDatabase({ url });
  try {
    await database.db.execute(sql`DROP SCHEMA IF EXISTS drizzle CASCADE`);
    await database.db.execute(sql`DROP SCHEMA public CASCADE`);
    await database.db.execute(sql`CREATE SCHEMA public`);
  } finally {
    await database.close();
  }
}

/** Entries in the ledger now. */
/**
 * Lets the seed's after-effects end before a sample: autovacuum's passes over the tables the seed filled (in one
 * watched run it worked on ledger_transfers and ledger_entries for three minutes, ending just before the large
 * sample) and the dirty pages (a CHECKPOINT; the ledger seed's own has flushed most). Samples then compare the
 * calls, not a background pass that lands in one and not the other: meInfo of the root, the first figure measured,
 * missed 1.5x in two runs of three (1.54x, 1.70x) while its p50 stayed 1.0x, and passed (1.28x) in the watched run.
 */
async function settleWrites(server: BenchServer): Promise<void> {
  const started = performance.now();
  await server.db.execute(sql`CHECKPOINT`);
  const checkpointMs = performance.now() - started;
  const busy = z.object({ workers: z.number() });
  let waited = 0;
  for (; waited < 240; waited++) {
    const [row] = await queryRows(server.db, sql`SELECT count(*)::int AS workers FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND datname = current_database()`, busy);
    if ((row?.workers ?? 0) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  detail(`scale.settle: checkpoint in ${ms(checkpointMs)}, autovacuum idle after ${(waited / 2).toFixed(1)} s`);
}

async function entryCount(server: BenchServer): Promise<number> {
  const [row] = await queryRows(server.db, sql`SELECT count(*)::int AS count FROM ledger_entries`, z.object({ count: z.number() }));
  return row?.count ?? 0;
}

/** The books check (every asset totals 0, no negative account), timed: a broken seed is a broken bench. */
async function expectBooks(server: BenchServer, when: string): Promise<void> {
  const started = performance.now();
  const summary = await ledgerSummary(server.db);
  if (summary.assets.CREDIT.total !== 0n || summary.assets.WPOS.total !== 0n || summary.negativeAccounts !== 0) throw new Error(`the books do not balance ${when}`);
  detail(`scale.books: balanced ${when} (every asset totals 0, no negative account), checked in ${ms(performance.now() - started)}`);
}

/** The money figures at size beside the same ones on the small database. */
function emitLedger(small: LedgerSample, large: LedgerSample, smallSize: string, largeSize: string): void {
  const same = `same run, ${smallSize}`;
  const ratio = (big: number, base: number) => `${(big / Math.max(base, 0.001)).toFixed(2)}x`;
  for (const [name, big] of large.flows) {
    const base = small.flows.get(name);
    if (!base) continue;
    const goal = Math.max(base.p99 * FLAT_RATIO, 1);
    emit({
      name: `scale.${name}.p99`,
      value: ms(big.p99),
      floor: `${ms(base.p99)} (${same})`,
      target: `goal <= ${FLAT_RATIO} x small`,
      verdict: atMost(big.p99, goal),
      note: `${ratio(big.p99, base.p99)}; ${rate(big.rate, 'ack')} at size, ${rate(base.rate, 'ack')} small (${ratio(big.rate, base.rate)}); ${big.connections} connections, ${largeSize}`,
    });
  }
  for (const [name, big] of large.records) {
    const base = small.records.get(name);
    if (base) emitPaired(name, base, big, `the hub's credit records, 20 a page by keyset; ${largeSize}`);
  }
  emit({
    name: 'scale.reconcile',
    value: ms(large.reconcile.p50),
    floor: `${ms(small.reconcile.p50)} (${same})`,
    target: `goal <= ${RECONCILE_GOAL_MS / 1000} s`,
    verdict: atMost(large.reconcile.max, RECONCILE_GOAL_MS),
    note: `${ratio(large.reconcile.p50, small.reconcile.p50)}; median of ${large.reconcile.count}, slowest ${ms(large.reconcile.max)}; against a local node; ${largeSize}`,
  });
  emit({
    name: 'scale.payout',
    value: ms(large.payout.ms),
    floor: `${ms(small.payout.ms)} for ${small.payout.holders.toLocaleString('en-US')} holders (${same})`,
    target: `goal <= ${PAYOUT_GOAL_MS / 1000} s`,
    verdict: atMost(large.payout.ms, PAYOUT_GOAL_MS),
    note: `${large.payout.holders.toLocaleString('en-US')} holders paid (planned once, in batches of 10,000); ${largeSize}`,
  });
  const sweepRate = (sweep: LedgerSample['sweep']) => sweep.removed / Math.max(sweep.ms / 1000, 0.001);
  emit({
    name: 'scale.retention.tokens',
    value: rate(sweepRate(large.sweep), 'rows'),
    floor: `${rate(sweepRate(small.sweep), 'rows')} (${same})`,
    target: 'goal >= 278 rows/s (a million an hour)',
    verdict: sweepRate(large.sweep) >= 278 ? 'PASS' : 'MISS',
    note: `one hourly round removed ${large.sweep.removed.toLocaleString('en-US')} expired sessions in ${ms(large.sweep.ms)} (small: ${small.sweep.removed.toLocaleString('en-US')} in ${ms(small.sweep.ms)}); a live session per member kept`,
  });
}
