/**
 * The ledger figures: acknowledged money calls per second through HTTP (autocannon in a worker thread, keep-alive
 * connections, a new requestId each): credit withdrawals over a sweep of connection counts, then WPOS transfers to
 * the team and flash exchanges at the connections the withdrawals chose, each against the raw rate of the same
 * work issued directly on the ledger batcher in the same run (no HTTP). Goals: ≥ 2,000/s on PGlite and ≥ 3,500/s on
 * PostgreSQL for each, and p99 ≤ 50 ms for the PGlite withdrawals. Then settlements, every buyer wanting the same
 * goods (one hot stock row): ≥ 1,000/s on PGlite and ≥ 2,000/s on PostgreSQL. The share-pool payout figure (bench/payout.ts)
 * runs first, on the same database.
 *
 * Set-up on the bench's own database: the withdrawal limits are raised (daily cap and maximum) so that only the
 * balance could refuse; 10 members sign in through HTTP under the seeded inviter and 10 more each under one of them
 * (so each of the first may pay its own), and the operator grants every one of them credit and WPOS through POST
 * /api/admin/grant. Afterwards the books are checked (every asset totals 0, no negative account).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { LEDGER_BATCHES_IN_FLIGHT } from '../server/ledger/batcher';
import { toMinor } from '../api-schema/amount';
import { ledgerSummary, memberIdByAddress } from '../server/ledger/queries';
import type { AppConfig } from '../server/config/appConfig';
import { createLedgerBatcher, type LedgerRequest } from '../server/ledger/engine';
import { exchangeRequest } from '../server/ledger/exchange';
import { memberTransferRequest } from '../server/ledger/memberTransfers';
import { withdrawalRequest } from '../server/ledger/withdrawals';
import { goodsById, stockKey } from '../server/buy/goods';
import { settlementRequest } from '../server/buy/orders';
import type { DeliveryAddress } from '../api-schema/buy';
import type { BenchServer } from './appServer';
import { signInBoundMember } from './appServer';
import { treasuryHeaders } from '../tests/support/treasury';
import type { LedgerLoadInput, LedgerLoadResult } from './ledgerClient';
import { benchPayout } from './payout';
import { hostLog } from './hostLoop';
import { pool } from './net';
import { atLeast, atMost, detail, emit, ms, percent, rate } from './report';
import { runTsWorker } from './tsWorker';

/** Members paying (each with one member below it to pay), and as many below them. */
const PAIRS = 10;
/**
 * The loads of each storage, in keep-alive connections (LEDGER_CONNECTIONS="10,64" overrides both). A rate measured
 * with few clients is bound by each request's latency, not by the server: the figure is the best rate of the sweep,
 * on PGlite the best whose p99 meets the goal (a rate paired with a latency goal is the rate sustained within it).
 * Both sweeps reach 64: more clients make larger batches, and a batch's fixed cost (its statements, its commit) is
 * most of a small one's. Measured on PGlite (32, 48, 64 connections): 2,143, 2,031 and 2,647 withdrawals/s, p99 28,
 * 40 and 39 ms; on another run 64 gave 2,523/s at p99 62 ms, past the goal, and 32 1,998/s, so 48 is swept too (the
 * figure is the rate sustained within the goal, wherever the knee is). PostgreSQL, with no latency goal, goes on to
 * 128: since the next batch goes out while the server answers the last (ADR 0046), 128 gave 18-28 % more
 * than 64 (withdrawals 2,870 -> 3,385/s, exchanges 3,191 -> 4,089/s, p99 44 -> 81 ms).
 */
const SWEEPS = { pglite: [10, 32, 48, 64], postgres: [10, 32, 64, 128] } as const;
const sweepOverride = process.env.LEDGER_CONNECTIONS?.split(',').map(Number);
const AMOUNT = '10';
const GOALS = { pglite: 2_000, postgres: 3_500 } as const;
/** Settlements, every buyer wanting the same goods (one hot stock row), against the goals below. */
const SETTLEMENT_GOALS = { pglite: 1_000, postgres: 2_000 } as const;
export const HOT_GOODS = 'member-notebook';
const P99_GOAL_MS = 50;

export interface LoadRun {
  connections: number;
  rate: number;
  p99: number;
  note: string;
}

/** One HTTP load of `connections` keep-alive connections: acknowledged rate, p99 and a note for the figure. */
export async function httpLoad(server: BenchServer, load: Pick<LedgerLoadInput, 'path' | 'calls'>, connections: number, seconds: number): Promise<LoadRun> {
  const hostMs = hostLog.read(`${load.path} with ${connections} connections`);
  const input: LedgerLoadInput = { baseUrl: server.site.baseUrl, ...load, connections, durationMs: seconds * 1000, warmupMs: 1000 };
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
    note: `p50 ${ms(answer.p50)}, p99 ${ms(answer.p99)}; ${connections} connections${refused ? `; refused ${refused}` : ''}${broken}; host loop ${ms(hostMs)}`,
  };
}

interface BenchMember {
  token: string;
  memberId: number;
  address: string;
  inviteCode: string;
}

/** Signs a member in under `inviteCode` and grants it credit (100,000,000) and `wpos` WPOS through the operator API. */
async function grantedMember(server: BenchServer, inviteCode: string, wpos: string): Promise<BenchMember> {
  const token = await signInBoundMember(server.site, inviteCode);
  const me = await server.app.inject({ method: 'GET', url: '/api/member/meInfo', headers: { authorization: token } });
  const { address, inviteCode: own } = z.object({ result: z.object({ address: z.string(), inviteCode: z.string() }) }).parse(me.json()).result;
  for (const asset of ['CREDIT', 'WPOS'] as const) {
    const granted = await server.app.inject({
      method: 'POST',
      url: '/api/admin/grant',
      headers: treasuryHeaders(),
      payload: { address, asset, amount: asset === 'WPOS' ? wpos : '100000000', requestId: randomUUID() },
    });
    if (z.object({ code: z.number() }).parse(granted.json()).code !== 0) throw new Error(`grant failed: ${granted.body}`);
  }
  const memberId = await memberIdByAddress(server.db, address);
  if (memberId === undefined) throw new Error(`no member ${address}`);
  return { token, memberId, address, inviteCode: own };
}

/** A member's shipping address, added through HTTP, as settlement copies it onto the order. */
async function addressOfMember(server: BenchServer, member: BenchMember): Promise<DeliveryAddress> {
  const added = await server.app.inject({
    method: 'POST',
    url: '/api/member/delivery/add',
    headers: { authorization: member.token },
    payload: { name: 'Bench', phone: '13800138000', region: '浙江省 / 杭州市 / 西湖区', detail: '文三路 1 号', isDefault: true },
  });
  return z.object({ code: z.literal(0), result: deliveryAddressShape }).parse(added.json()).result;
}

const deliveryAddressShape = z.object({ deliveryId: z.string(), name: z.string(), phone: z.string(), region: z.string(), detail: z.string(), isDefault: z.boolean() });

/**
 * Raises the limits and the hot goods' stock, and creates the paying members under the seeded inviter and one member
 * below each, each with a shipping address.
 */
export async function prepareMembers(
  server: BenchServer,
  wpos = '100000000',
): Promise<{ payers: BenchMember[]; payees: BenchMember[]; addresses: Map<number, DeliveryAddress> }> {
  await server.db.execute(
    sql`UPDATE app_config SET value = value || '{"maxWithdraw": "999999999999", "dailyWithdrawCap": "999999999999"}'::jsonb WHERE id = 1`,
  );
  await server.db.execute(sql`UPDATE ledger_counters SET available = 1000000000000 WHERE key = ${stockKey(HOT_GOODS)}`);
  const payers = await pool(Array.from({ length: PAIRS }), 5, () => grantedMember(server, 'DEMO2026', wpos));
  const payees = await pool(payers, 5, (payer) => grantedMember(server, payer.inviteCode, wpos));
  const addresses = new Map<number, DeliveryAddress>();
  for (const member of [...payers, ...payees]) addresses.set(member.memberId, await addressOfMember(server, member));
  return { payers, payees, addresses };
}

/** A ledger request the batcher posts, built from the batch's app config. */
type LedgerWork = (config: AppConfig, turn: number, now: Date) => LedgerRequest;

/** Each flow's HTTP load and the same requests for the raw rate on the batcher. */
export function flows(members: { payers: BenchMember[]; payees: BenchMember[]; addresses: Map<number, DeliveryAddress> }, hotPrice: bigint) {
  const everyone = [...members.payers, ...members.payees];
  const addressOf = (member: BenchMember): DeliveryAddress => {
    const address = members.addresses.get(member.memberId);
    if (!address) throw new Error(`member ${member.memberId} has no address`);
    return address;
  };
  const amount = toMinor(AMOUNT);
  const at = <T>(items: T[], turn: number): T => items[turn % items.length] as T;
  return {
    withdrawals: {
      load: { path: '/api/member/withdrawCredit', calls: everyone.map((member) => ({ token: member.token, body: { amount: AMOUNT } })) },
      work: ((config, turn, now) => withdrawalRequest({ memberId: at(everyone, turn).memberId, amount, requestId: randomUUID(), now }, config)) as LedgerWork,
    },
    transfers: {
      load: {
        path: '/api/member/transferWpos',
        calls: members.payers.map((payer, index) => ({ token: payer.token, body: { toAddress: members.payees[index]?.address, amount: AMOUNT } })),
      },
      work: ((config, turn, now) =>
        memberTransferRequest({
          endpoint: 'transferWpos',
          asset: 'WPOS',
          fromMemberId: at(members.payers, turn).memberId,
          toMemberId: at(members.payees, turn).memberId,
          amount,
          minimum: toMinor(config.minTransfer),
          recipientAllowed: true,
          requestId: randomUUID(),
          now,
        })) as LedgerWork,
    },
    exchanges: {
      // Both directions, so neither balance runs out.
      load: { path: '/api/member/flashExchange', calls: everyone.map((member, index) => ({ token: member.token, body: { from: index % 2 ? 'WPOS' : 'CREDIT', amount: AMOUNT } })) },
      work: ((config, turn, now) =>
        exchangeRequest({ memberId: at(everyone, turn).memberId, from: turn % 2 ? 'WPOS' : 'CREDIT', amount, requestId: randomUUID(), now }, config)) as LedgerWork,
    },
    settlements: {
      load: {
        path: '/api/order/settle',
        calls: everyone.map((member) => ({ token: member.token, body: { goodsId: HOT_GOODS, quantity: 1, deliveryId: addressOf(member).deliveryId } })),
      },
      work: ((_config, turn, now) => {
        const member = at(everyone, turn);
        const address = addressOf(member);
        return settlementRequest({ memberId: member.memberId, goodsId: HOT_GOODS, deliveryId: address.deliveryId, quantity: 1, requestId: randomUUID(), price: hotPrice, address, now });
      }) as LedgerWork,
    },
  };
}

/** Acknowledged requests per second of `work` with `inFlight` calls at a time through a fresh ledger batcher. */
async function batcherRate(
  server: BenchServer,
  inFlight: number,
  seconds: number,
  work: LedgerWork,
): Promise<number> {
  const ledger = createLedgerBatcher(server.db, { maxInFlight: LEDGER_BATCHES_IN_FLIGHT });
  let done = 0;
  let turn = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        const now = new Date();
        const mine = turn++;
        const outcome = await ledger.post((config) => work(config, mine, now), now);
        if (outcome.code !== 0) throw new Error(`raw request refused: ${outcome.code}`);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/**
 * Measures and prints the ledger figure of one storage.
 *
 * @param server - a running bench server (startBenchServer: with the test treasury)
 * @param storage - pglite or postgres (names the figure and picks the goal)
 * @param seconds - length of each measured run
 * @returns when printed
 * @example
 * await benchLedger(server, 'pglite', 10);
 */
export async function benchLedger(server: BenchServer, storage: 'pglite' | 'postgres', seconds: number): Promise<void> {
  await benchPayout(server, storage);
  const members = await prepareMembers(server);
  const hot = await goodsById(server.db, HOT_GOODS, 'zh');
  if (!hot) throw new Error(`no goods ${HOT_GOODS}`);
  const { withdrawals, transfers, exchanges, settlements } = flows(members, hot.priceMinor);
  const runs: LoadRun[] = [];
  for (const connections of sweepOverride ?? SWEEPS[storage]) {
    const run = await httpLoad(server, withdrawals.load, connections, seconds);
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
  const rawSeconds = Math.max(2, seconds / 2);
  const figure = async (name: string, run: LoadRun, work: LedgerWork, note: string, goal: number = GOALS[storage]) => {
    const raw = await batcherRate(server, chosen.connections, rawSeconds, work);
    emit({
      name: `ledger.${storage}.${name}`,
      value: rate(run.rate, 'ack'),
      floor: rate(raw, 'tx'),
      target: `goal >= ${goal} ack/s`,
      verdict: atLeast(run.rate, goal),
      note: `${percent(run.rate / raw)} of raw; ${run.note}${note}`,
    });
  };
  await figure('withdrawals', chosen, withdrawals.work, `; best of ${runs.length} loads`);
  await figure('transfers', await httpLoad(server, transfers.load, chosen.connections, seconds), transfers.work, '; WPOS to the member below');
  await figure('exchanges', await httpLoad(server, exchanges.load, chosen.connections, seconds), exchanges.work, '; both directions in turn');
  await figure(
    'settlements',
    await httpLoad(server, settlements.load, chosen.connections, seconds),
    settlements.work,
    `; every buyer the same goods (one hot stock row)`,
    SETTLEMENT_GOALS[storage],
  );
  if (storage === 'pglite') {
    emit({ name: 'ledger.pglite.p99', value: ms(chosen.p99), floor: 'n/a', target: `budget <= ${P99_GOAL_MS} ms`, verdict: atMost(chosen.p99, P99_GOAL_MS), note: `withdrawals at ${rate(chosen.rate, 'ack')}, ${chosen.connections} connections` });
  }
  const summary = await ledgerSummary(server.db);
  detail(
    `ledger.${storage}: books after the run: CREDIT total ${summary.assets.CREDIT.total}, WPOS total ${summary.assets.WPOS.total}, ` +
      `negative accounts ${summary.negativeAccounts}`,
  );
  if (summary.assets.CREDIT.total !== 0n || summary.assets.WPOS.total !== 0n || summary.negativeAccounts !== 0) throw new Error('the books do not balance');
}
