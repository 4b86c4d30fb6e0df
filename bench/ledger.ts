/**
 * The ledger figure: acknowledged credit withdrawals per second through HTTP (POST withdrawCredit, a new
 * requestId each, from a worker thread over keep-alive connections), against the raw rate of the same work
 * issued directly on the database in the same run (the handler's withdrawal desk without HTTP).
 * Goals: ≥ 800/s on PGlite and ≥ 2,500/s on PostgreSQL through HTTP, and p99 ≤ 50 ms in the PGlite run.
 *
 * Set-up on the bench's own database: the withdrawal limits are raised (daily cap and maximum) so that only the
 * balance could refuse, 20 bound members sign in through HTTP and the operator grants each of them credit through
 * POST /api/admin/grant. Afterwards the books are checked (every asset totals 0, no negative account).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { BATCHES_IN_FLIGHT } from '../server/ledger/batcher';
import { parseAmount } from '../server/ledger/money';
import { ledgerSummary, memberIdByAddress } from '../server/ledger/queries';
import { createCreditWithdrawals } from '../server/ledger/withdrawals';
import type { BenchServer } from './appServer';
import { BENCH_ADMIN_TOKEN, signInBoundMember } from './appServer';
import type { LedgerLoadInput, LedgerLoadResult } from './ledgerClient';
import { pool } from './net';
import { atLeast, atMost, detail, emit, ms, percent, rate } from './report';
import { runTsWorker } from './tsWorker';

const MEMBERS = 20;
/** Keep-alive connections of the load client; LEDGER_CONNECTIONS overrides it to see where the rate saturates. */
const CONNECTIONS = Number(process.env.LEDGER_CONNECTIONS ?? 10);
const AMOUNT = '10';
const GOALS = { pglite: 800, postgres: 2_500 } as const;
const P99_GOAL_MS = 50;

/** The PostgreSQL run measures again with this many connections, as an INFO figure (where the rate saturates). */
const SATURATING_CONNECTIONS = 64;

/** One HTTP load of `connections` keep-alive connections: acknowledged rate, p99 and a note for the figure. */
async function httpLoad(server: BenchServer, tokens: string[], connections: number, seconds: number): Promise<{ rate: number; p99: number; note: string }> {
  const input: LedgerLoadInput = { baseUrl: server.site.baseUrl, tokens, connections, durationMs: seconds * 1000, warmupMs: 1000, amount: AMOUNT };
  const answer = (await runTsWorker(new URL('./ledgerClient.ts', import.meta.url), input, seconds * 1000 + 60_000)) as
    | LedgerLoadResult
    | { ok: false; error: string };
  if (!answer.ok) throw new Error(answer.error);
  const httpRate = (answer.codes['0'] ?? 0) / (answer.elapsedMs / 1000);
  const sorted = [...answer.latencies].sort((a, b) => a - b);
  const p99 = quantile(sorted, 0.99);
  const refused = Object.entries(answer.codes)
    .filter(([code]) => code !== '0')
    .map(([code, count]) => `${code}×${count}`)
    .join(' ');
  return { rate: httpRate, p99, note: `p50 ${ms(quantile(sorted, 0.5))}, p99 ${ms(p99)}; ${connections} connections${refused ? `; refused ${refused}` : ''}` };
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
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
 * The same work as the route (the withdrawal desk: its batcher and ledger_withdraw_batch), called directly with
 * CONNECTIONS in flight: the floor of the HTTP figure.
 */
async function rawRate(server: BenchServer, storage: 'pglite' | 'postgres', memberIds: number[], seconds: number): Promise<number> {
  const amount = parseAmount(AMOUNT);
  const withdrawals = createCreditWithdrawals(server.db, BATCHES_IN_FLIGHT[storage === 'pglite' ? 'pglite' : 'node-postgres']);
  let done = 0;
  let turn = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const memberId = memberIds[turn++ % memberIds.length] ?? 0;
        await withdrawals.withdraw({ memberId, amount, requestId: randomUUID(), now: new Date() });
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
  const raw = await rawRate(server, storage, memberIds, Math.max(2, seconds / 2));
  const measured = await httpLoad(server, tokens, CONNECTIONS, seconds);
  emit({
    name: `ledger.${storage}.withdrawals`,
    value: rate(measured.rate, 'ack'),
    floor: rate(raw, 'tx'),
    target: `goal >= ${GOALS[storage]} ack/s`,
    verdict: atLeast(measured.rate, GOALS[storage]),
    note: `${percent(measured.rate / raw)} of raw; ${measured.note}`,
  });
  if (storage === 'pglite') {
    emit({ name: 'ledger.pglite.p99', value: ms(measured.p99), floor: 'n/a', target: `budget <= ${P99_GOAL_MS} ms`, verdict: atMost(measured.p99, P99_GOAL_MS), note: `at ${rate(measured.rate, 'ack')}` });
  } else {
    // Where the rate saturates: a PostgreSQL deployment serves many members at once, and at 10 connections the
    // figure above is bound by each request's latency rather than by the machine.
    const saturated = await httpLoad(server, tokens, SATURATING_CONNECTIONS, seconds);
    emit({ name: 'ledger.postgres.withdrawals.saturated', value: rate(saturated.rate, 'ack'), floor: rate(raw, 'tx'), target: '-', verdict: 'INFO', note: saturated.note });
  }
  const summary = await ledgerSummary(server.db);
  detail(
    `ledger.${storage}: books after the run: CREDIT total ${summary.assets.CREDIT.total}, WPOS total ${summary.assets.WPOS.total}, ` +
      `negative accounts ${summary.negativeAccounts}`,
  );
  if (summary.assets.CREDIT.total !== 0n || summary.assets.WPOS.total !== 0n || summary.negativeAccounts !== 0) throw new Error('the books do not balance');
}
