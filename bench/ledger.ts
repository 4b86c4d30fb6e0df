/**
 * The ledger figure: acknowledged credit withdrawals per second through HTTP (POST withdrawCredit, a new
 * requestId each, from autocannon in a worker thread over a sweep of keep-alive connection counts), against the
 * raw rate of the same work issued directly on the database in the same run (the ledger desk without HTTP); and
 * member-to-member transfers through the same desk (the engine's flow that WPOS's transferWpos will put behind a
 * route). Goals: ≥ 2,000/s on PGlite and ≥ 3,500/s on PostgreSQL for both, and p99 ≤ 50 ms in the PGlite run.
 *
 * Set-up on the bench's own database: the withdrawal limits are raised (daily cap and maximum) so that only the
 * balance could refuse, 20 bound members sign in through HTTP and the operator grants each of them credit through
 * POST /api/admin/grant. Afterwards the books are checked (every asset totals 0, no negative account).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { BATCHES_IN_FLIGHT } from '../server/ledger/batcher';
import { toMinor } from '../api-schema/amount';
import { ledgerSummary, memberIdByAddress } from '../server/ledger/queries';
import { getAppConfig, type AppConfig } from '../server/config/appConfig';
import { createLedgerDesk, type LedgerDesk } from '../server/ledger/engine';
import { memberTransferRequest } from '../server/ledger/memberTransfers';
import { withdrawCredit } from '../server/ledger/withdrawals';
import type { BenchServer } from './appServer';
import { BENCH_ADMIN_TOKEN, signInBoundMember } from './appServer';
import type { LedgerLoadInput, LedgerLoadResult } from './ledgerClient';
import { pool } from './net';
import { atLeast, atMost, detail, emit, ms, percent, rate } from './report';
import { runTsWorker } from './tsWorker';

const MEMBERS = 20;
/**
 * The loads of each storage, in keep-alive connections (LEDGER_CONNECTIONS="10,64" overrides both). A rate measured
 * with few clients is bound by each request's latency, not by the server: the figure is the best rate of the sweep,
 * on PGlite the best whose p99 meets the goal (a rate paired with a latency goal is the rate sustained within it).
 * PGlite's sweep stops at 32: its one thread answers in turn, so more clients only queue.
 */
const SWEEPS = { pglite: [10, 20, 32], postgres: [10, 32, 64] } as const;
const sweepOverride = process.env.LEDGER_CONNECTIONS?.split(',').map(Number);
const AMOUNT = '10';
const GOALS = { pglite: 2_000, postgres: 3_500 } as const;
const P99_GOAL_MS = 50;

interface LoadRun {
  connections: number;
  rate: number;
  p99: number;
  note: string;
}

/** One HTTP load of `connections` keep-alive connections: acknowledged rate, p99 and a note for the figure. */
async function httpLoad(server: BenchServer, tokens: string[], connections: number, seconds: number): Promise<LoadRun> {
  const input: LedgerLoadInput = { baseUrl: server.site.baseUrl, tokens, connections, durationMs: seconds * 1000, warmupMs: 1000, amount: AMOUNT };
  const answer = (await runTsWorker(new URL('./ledgerClient.ts', import.meta.url), input, seconds * 1000 + 60_000)) as
    | LedgerLoadResult
    | { ok: false; error: string };
  if (!answer.ok) throw new Error(answer.error);
  const httpRate = (answer.codes['0'] ?? 0) / (answer.elapsedMs / 1000);
  const refused = Object.entries(answer.codes)
    .filter(([code]) => code !== '0')
    .map(([code, count]) => `${code}×${count}`)
    .join(' ');
  const broken = answer.errors + answer.timeouts > 0 ? `; ${answer.errors} errors, ${answer.timeouts} timeouts` : '';
  return {
    connections,
    rate: httpRate,
    p99: answer.p99,
    note: `p50 ${ms(answer.p50)}, p99 ${ms(answer.p99)}; ${connections} connections${refused ? `; refused ${refused}` : ''}${broken}`,
  };
}

/** Raises the limits and creates MEMBERS members with a large CREDIT balance granted through the operator API. */
async function prepareMembers(server: BenchServer): Promise<{ tokens: string[]; memberIds: number[] }> {
  await server.db.execute(
    sql`UPDATE app_config SET value = value || '{"maxWithdraw": "999999999999", "dailyWithdrawCap": "999999999999"}'::jsonb WHERE id = 1`,
  );
  const tokens = await pool(Array.from({ length: MEMBERS }), 5, () => signInBoundMember(server.site, 'DEMO2026'));
  const memberIds: number[] = [];
  for (const token of tokens) {
    const me = await server.app.inject({ method: 'GET', url: '/api/member/meInfo', headers: { authorization: token } });
    const address = z.object({ result: z.object({ address: z.string() }) }).parse(me.json()).result.address;
    const granted = await server.app.inject({
      method: 'POST',
      url: '/api/admin/grant',
      headers: { 'x-admin-token': BENCH_ADMIN_TOKEN },
      payload: { address, asset: 'CREDIT', amount: '100000000', requestId: randomUUID() },
    });
    if (z.object({ code: z.number() }).parse(granted.json()).code !== 0) throw new Error(`grant failed: ${granted.body}`);
    const memberId = await memberIdByAddress(server.db, address);
    if (memberId === undefined) throw new Error(`no member ${address}`);
    memberIds.push(memberId);
  }
  return { tokens, memberIds };
}

/**
 * The same work as the route (the ledger desk: its batcher and ledger_post), called directly with
 * `inFlight` calls at a time (the chosen load's connections): the floor of the HTTP figure.
 */
async function rawRate(server: BenchServer, storage: 'pglite' | 'postgres', memberIds: number[], inFlight: number, seconds: number): Promise<number> {
  const amount = toMinor(AMOUNT);
  return deskRate(server, storage, inFlight, seconds, (desk, turn) =>
    withdrawCredit(desk, { memberId: memberIds[turn % memberIds.length] ?? 0, amount, requestId: randomUUID(), now: new Date() }),
  );
}

/** Member-to-member transfers through the desk, each member paying the next in turn. */
async function transferRate(server: BenchServer, storage: 'pglite' | 'postgres', memberIds: number[], inFlight: number, seconds: number): Promise<number> {
  const amount = toMinor(AMOUNT);
  return deskRate(server, storage, inFlight, seconds, async (desk, turn) => {
    const now = new Date();
    const fromMemberId = memberIds[turn % memberIds.length] ?? 0;
    const toMemberId = memberIds[(turn + 1) % memberIds.length] ?? 0;
    const request = { endpoint: 'benchTransfer', asset: 'CREDIT', fromMemberId, toMemberId, amount, minimum: 0n, recipientAllowed: true, requestId: randomUUID(), now } as const;
    const outcome = await desk.post(() => memberTransferRequest(request), now);
    if (outcome.code !== 0) throw new Error(`transfer refused: ${outcome.code}`);
  });
}

/** Acknowledged requests per second of `work` with `inFlight` calls at a time through a fresh ledger desk. */
async function deskRate(
  server: BenchServer,
  storage: 'pglite' | 'postgres',
  inFlight: number,
  seconds: number,
  work: (desk: LedgerDesk<AppConfig>, turn: number) => Promise<unknown>,
): Promise<number> {
  const desk = createLedgerDesk(server.db, { maxInFlight: BATCHES_IN_FLIGHT[storage === 'pglite' ? 'pglite' : 'node-postgres'], readContext: getAppConfig });
  let done = 0;
  let turn = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        await work(desk, turn++);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/**
 * Measures and prints the ledger figure of one storage.
 *
 * @param server - a running bench server built with BENCH_ADMIN_TOKEN
 * @param storage - pglite or postgres (names the figure and picks the goal)
 * @param seconds - length of each measured run
 * @returns when printed
 * @example
 * await benchLedger(server, 'pglite', 10);
 */
export async function benchLedger(server: BenchServer, storage: 'pglite' | 'postgres', seconds: number): Promise<void> {
  const { tokens, memberIds } = await prepareMembers(server);
  const runs: LoadRun[] = [];
  for (const connections of sweepOverride ?? SWEEPS[storage]) {
    const run = await httpLoad(server, tokens, connections, seconds);
    detail(`ledger.${storage}.sweep: ${rate(run.rate, 'ack')}; ${run.note}`);
    runs.push(run);
  }
  const best = (candidates: LoadRun[]): LoadRun | undefined => candidates.reduce<LoadRun | undefined>((top, run) => (top && top.rate >= run.rate ? top : run), undefined);
  // PGlite: the best rate within the p99 goal, else (a MISS of the p99) the run with the lowest p99.
  const chosen =
    storage === 'pglite'
      ? (best(runs.filter((run) => run.p99 <= P99_GOAL_MS)) ?? runs.reduce((low, run) => (run.p99 < low.p99 ? run : low)))
      : best(runs);
  if (!chosen) throw new Error('no load run');
  const raw = await rawRate(server, storage, memberIds, chosen.connections, Math.max(2, seconds / 2));
  emit({
    name: `ledger.${storage}.withdrawals`,
    value: rate(chosen.rate, 'ack'),
    floor: rate(raw, 'tx'),
    target: `goal >= ${GOALS[storage]} ack/s`,
    verdict: atLeast(chosen.rate, GOALS[storage]),
    note: `${percent(chosen.rate / raw)} of raw; ${chosen.note}; best of ${runs.length} loads`,
  });
  const transfers = await transferRate(server, storage, memberIds, chosen.connections, Math.max(2, seconds / 2));
  emit({
    name: `ledger.${storage}.transfers`,
    value: rate(transfers, 'ack'),
    floor: 'n/a',
    target: `goal >= ${GOALS[storage]} ack/s`,
    verdict: atLeast(transfers, GOALS[storage]),
    note: `member to member through the ledger desk (no route until WPOS's transferWpos), ${chosen.connections} in flight`,
  });
  if (storage === 'pglite') {
    emit({ name: 'ledger.pglite.p99', value: ms(chosen.p99), floor: 'n/a', target: `budget <= ${P99_GOAL_MS} ms`, verdict: atMost(chosen.p99, P99_GOAL_MS), note: `at ${rate(chosen.rate, 'ack')}, ${chosen.connections} connections` });
  }
  const summary = await ledgerSummary(server.db);
  detail(
    `ledger.${storage}: books after the run: CREDIT total ${summary.assets.CREDIT.total}, WPOS total ${summary.assets.WPOS.total}, ` +
      `negative accounts ${summary.negativeAccounts}`,
  );
  if (summary.assets.CREDIT.total !== 0n || summary.assets.WPOS.total !== 0n || summary.negativeAccounts !== 0) throw new Error('the books do not balance');
}
