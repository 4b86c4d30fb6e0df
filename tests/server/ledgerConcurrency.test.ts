/**
 * The ledger under load, on every database target (PGlite in a worker thread, as the server runs it): 10,000
 * concurrent grants (CREDIT and WPOS), withdrawals, WPOS transfers within the team and flash exchanges among 20
 * members, through the HTTP API, with 10 % replays of a request id and some repeats of an id with another body, sent
 * in concurrent batches (on PostgreSQL through two app instances on two pools, as behind a load balancer), while the
 * operator's share-pool payout runs for several days from both instances at once, and the operator decides
 * withdrawals (done or failed, refunding them) among the batches that still bring new ones (a refund of a
 * member who withdrew more that day had failed). Afterwards every member's balances are what the acknowledged
 * answers, the refunds and the payouts imply, nothing went negative, the books balance, no pool paid twice in a
 * day, every withdrawal has the status it was given, and every acknowledged movement is in the records exactly
 * once.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { privateKeyToAccount } from 'viem/accounts';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { ApiCode } from '../../api-schema/codes';
import { queryRows } from '../../server/db/client';
import { withdrawalStatusSql } from '../../server/ledger/withdrawalLifecycle';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { describeWithDatabases } from './support/harness';
import { decide, expectBooksBalanced, fundSystemAccount, grant, treasuryHeaders, withdraw } from './support/testLedger';
import { authHeaders, envelope, signInBound } from './support/memberSignIn';
import { seededRandom } from '../../scripts/seededRandom';

const MEMBERS = 20;
const REQUESTS = 10_000;
const REPLAY_SHARE = 0.1;
const OTHER_BODY_SHARE = 0.02;
const BATCH = 100;
/** Each member withdraws about 10,000 over the run; a cap of 2,000 a day is met by most of them. */
const DAILY_CAP = '2000';


type Asset = 'CREDIT' | 'WPOS';

interface Operation {
  kind: 'grant' | 'withdraw' | 'transfer' | 'exchange';
  member: number;
  /** A grant's asset, or what an exchange pays. */
  asset: Asset;
  /** The recipient of a transfer. */
  to: number;
  requestId: string;
  amount: string;
}

interface Answer {
  op: Operation;
  code: number;
  result: unknown;
}

/** The members as a binary tree under the seeded inviter: member i is bound to member (i - 1) / 2. */
const recommenderOf = (index: number) => Math.floor((index - 1) / 2);
function downlineOf(index: number): number[] {
  const below: number[] = [];
  for (let member = index + 1; member < MEMBERS; member++) {
    for (let up = member; up > 0; up = recommenderOf(up)) if (recommenderOf(up) === index) below.push(member);
  }
  return below;
}

/** Days the operator pays during the load (the test clock's today is the last). */
const PAYOUT_DAYS = ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'];

describeWithDatabases('ledger under concurrency', (ctx) => {
  it(`keeps the books through ${REQUESTS} concurrent grants, withdrawals, transfers and exchanges with replays and payouts`, { timeout: 300_000 }, async () => {
    // A daily cap the members meet during the load, so refunds give back room that later withdrawals use.
    await ctx.db.execute(sql`UPDATE app_config SET value = value || jsonb_build_object('dailyWithdrawCap', ${DAILY_CAP}::text) WHERE id = 1`);
    const apps = await ctx.instances();
    // What the pools pay and WPOS exchanges back to CREDIT come from funded accounts (finance's, as set-up here).
    await fundSystemAccount(ctx.db, 'sharePools', '100000000');
    await fundSystemAccount(ctx.db, 'exchangeCredit', '100000000');
    const rng = seededRandom(20261123);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
    const members = Array.from({ length: MEMBERS }, (_, index) => privateKeyToAccount(`0x${(index + 1).toString(16).padStart(64, '7')}`));
    const tokens: string[] = [];
    const inviteCodes: string[] = [];
    for (const [index, account] of members.entries()) {
      const token = await signInBound(apps[0] as FastifyInstance, account, ctx.clock.now(), index === 0 ? 'DEMO2026' : inviteCodes[recommenderOf(index)]);
      tokens.push(token);
      const me = envelope<{ inviteCode: string }>(await (apps[0] as FastifyInstance).inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) }));
      inviteCodes.push(me.result?.inviteCode ?? '');
    }
    const downlines = members.map((_, index) => downlineOf(index));
    const senders = downlines.flatMap((below, index) => (below.length > 0 ? [index] : []));

    const answerOf = (response: Pick<LightMyRequestResponse, 'json'>) => {
      const body = envelope(response);
      return { code: body.code, result: body.result };
    };
    const send = async (op: Operation, instance: number): Promise<{ code: number; result: unknown }> => {
      const app = apps[instance] as FastifyInstance;
      const token = tokens[op.member] ?? '';
      const post = (url: string, payload: Record<string, unknown>) => app.inject({ method: 'POST', url, headers: authHeaders(token), payload });
      if (op.kind === 'grant') return answerOf(await grant(app, { address: members[op.member]?.address ?? '', asset: op.asset, amount: op.amount, requestId: op.requestId }));
      if (op.kind === 'withdraw') return answerOf(await withdraw(app, token, { amount: op.amount, requestId: op.requestId }));
      if (op.kind === 'transfer') return answerOf(await post('/api/member/transferWpos', { toAddress: members[op.to]?.address, amount: op.amount, requestId: op.requestId }));
      return answerOf(await post('/api/member/flashExchange', { from: op.asset, amount: op.amount, requestId: op.requestId }));
    };
    const payout = async (day: string, instance: number) =>
      envelope<{ pools: number; paid: string }>(
        await (apps[instance] as FastifyInstance).inject({ method: 'POST', url: '/api/admin/distribute', headers: treasuryHeaders(), payload: { day } }),
      );

    // Amounts with up to 6 decimals: grants 5..300, withdrawals 10..160 (minWithdraw 10, fee 1, daily cap 2000,
    // so some meet the cap or a short balance), transfers 1..120 WPOS to the team (1 in 25 to an upline or
    // itself: 3004), exchanges 0.5..60 either way at 0.5.
    const amount = (min: number, max: number) => formatMinor(BigInt(Math.round(min * 1_000_000)) + BigInt(Math.floor(rng() * (max - min) * 1_000_000)));
    const primary: Operation[] = Array.from({ length: REQUESTS }, () => {
      const draw = rng();
      const kind = draw < 0.3 ? 'grant' : draw < 0.55 ? 'withdraw' : draw < 0.8 ? 'transfer' : 'exchange';
      const member = kind === 'transfer' ? pick(senders) : Math.floor(rng() * MEMBERS);
      const to = kind === 'transfer' ? (rng() < 0.04 ? (member === 0 ? 0 : recommenderOf(member)) : pick(downlines[member] ?? [])) : member;
      const asset: Asset = kind === 'withdraw' ? 'CREDIT' : kind === 'transfer' ? 'WPOS' : rng() < 0.5 ? 'CREDIT' : 'WPOS';
      const sized = { grant: amount(5, 300), withdraw: amount(10, 160), transfer: amount(1, 120), exchange: amount(0.5, 60) }[kind];
      return { kind, member, asset, to, requestId: randomUUID(), amount: sized };
    });
    const replays = Array.from({ length: Math.round(REQUESTS * REPLAY_SHARE) }, () => ({ ...pick(primary) }));
    const otherBodies = Array.from({ length: Math.round(REQUESTS * OTHER_BODY_SHARE) }, () => {
      const op = pick(primary);
      return { ...op, amount: formatMinor(toMinor(op.amount) + 1_000_000n) };
    });
    const all = [...primary, ...replays, ...otherBodies];
    // Shuffle, so replays and other bodies race their originals in the same batch or come later.
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [all[i], all[j]] = [all[j] as Operation, all[i] as Operation];
    }

    const answers: Answer[] = [];
    const payouts: { pools: number; paid: string }[] = [];
    // The operator's decisions: withdrawals acknowledged in earlier batches are decided while later batches run.
    const undecided: { id: string; member: number; amount: string }[] = [];
    const decided = new Map<string, { member: number; amount: string; status: 'approved' | 'failed' }>();
    const seenWithdrawals = new Set<string>();
    const decideSome = (instanceBase: number) =>
      Array.from({ length: Math.min(6, undecided.length) }, (_, index) => {
        const [withdrawal] = undecided.splice(Math.floor(rng() * undecided.length), 1);
        if (!withdrawal) throw new Error('no undecided withdrawal');
        const status = rng() < 0.5 ? 'failed' : 'approved';
        decided.set(withdrawal.id, { member: withdrawal.member, amount: withdrawal.amount, status });
        const app = apps[(instanceBase + index) % apps.length] as FastifyInstance;
        return decide(app, { id: withdrawal.id, status }).then((response) => ({ id: withdrawal.id, status, body: envelope<{ status: string }>(response) }));
      });
    const batches = Math.ceil(all.length / BATCH);
    const started = performance.now();
    for (let offset = 0, batch = 0; offset < all.length; offset += BATCH, batch++) {
      const ops = all.slice(offset, offset + BATCH);
      // Every few batches a day's payout runs beside the batch, from every instance at once, and each day twice.
      const day = PAYOUT_DAYS[Math.floor((batch * PAYOUT_DAYS.length * 2) / batches) % PAYOUT_DAYS.length];
      const runs = batch % 10 === 5 && day ? apps.map((_, instance) => payout(day, instance)) : [];
      const [responses, paid, decisions] = await Promise.all([
        Promise.all(ops.map((op, index) => send(op, index % apps.length))),
        Promise.all(runs),
        Promise.all(decideSome(batch)),
      ]);
      for (const decision of decisions) expect(decision.body).toMatchObject({ code: 0, result: { id: decision.id, status: decision.status } });
      responses.forEach(({ code, result }, index) => {
        const op = ops[index] as Operation;
        answers.push({ op, code, result });
        if (op.kind !== 'withdraw' || code !== ApiCode.ok) return;
        const { id } = z.object({ id: z.string() }).parse(result);
        if (seenWithdrawals.has(id)) return;
        seenWithdrawals.add(id);
        undecided.push({ id, member: op.member, amount: op.amount });
      });
      for (const run of paid) {
        expect(run.code).toBe(0);
        if (run.result) payouts.push(run.result);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const refunded = [...decided.values()].filter((withdrawal) => withdrawal.status === 'failed');
    expect(refunded.length).toBeGreaterThan(0);
    expect(decided.size - refunded.length).toBeGreaterThan(0);
    // Every withdrawal has the status the operator gave it (the rest are still pending).
    const statuses = await queryRows(
      ctx.db,
      sql`SELECT w.id::text AS id, ${withdrawalStatusSql} AS status FROM withdrawals w JOIN ledger_pending d ON d.id = w.id`,
      z.object({ id: z.string(), status: z.string() }),
    );
    expect(statuses.filter((row) => row.status !== (decided.get(row.id)?.status ?? 'pending'))).toEqual([]);
    expect(statuses.length).toBe(seenWithdrawals.size);

    // Only these codes; and per request id, every acknowledgement is the same answer to the same body.
    const codes = new Map<number, number>();
    for (const answer of answers) codes.set(answer.code, (codes.get(answer.code) ?? 0) + 1);
    expect([...codes.keys()].filter((code) => ![0, 3001, 3002, 3003, 3004, 3005].includes(code))).toEqual([]);
    const acknowledged = new Map<string, Answer>();
    for (const answer of answers.filter((a) => a.code === ApiCode.ok)) {
      const first = acknowledged.get(answer.op.requestId);
      if (first) expect({ amount: answer.op.amount, result: answer.result }).toEqual({ amount: first.op.amount, result: first.result });
      else acknowledged.set(answer.op.requestId, answer);
    }
    const acked = [...acknowledged.values()];
    expect(acked.filter(({ op }) => op.kind === 'transfer' && !(downlines[op.member] ?? []).includes(op.to))).toEqual([]);

    // The payouts: each pool at most once per day, and what the runs answered is what the ledger moved.
    const big = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));
    const paidDays = await queryRows(ctx.db, sql`SELECT pool_id AS "poolId", day::text AS day, paid FROM share_pool_payouts`, z.object({ poolId: z.number(), day: z.string(), paid: big }));
    expect(paidDays.length).toBe(payouts.reduce((sum, run) => sum + run.pools, 0));
    expect(paidDays.length).toBeGreaterThan(0);
    expect(paidDays.reduce((sum, row) => sum + row.paid, 0n)).toBe(payouts.reduce((sum, run) => sum + toMinor(run.paid), 0n));
    const profit = await queryRows(
      ctx.db,
      sql`SELECT m.address, sum(e.amount) AS amount FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
          JOIN ledger_accounts a ON a.id = e.account_id JOIN members m ON m.id = a.member_id WHERE t.type = 'distribution' GROUP BY m.address`,
      z.object({ address: z.string(), amount: big }),
    );

    // Balances: what the acknowledged answers and the payouts imply.
    const expected = members.map((account) => ({ CREDIT: 0n, WPOS: profit.find((row) => row.address === account.address)?.amount ?? 0n }));
    const add = (member: number, asset: Asset, amount: bigint) => {
      const balances = expected[member];
      if (balances) balances[asset] += amount;
    };
    for (const { op, result } of acked) {
      const minor = toMinor(op.amount);
      if (op.kind === 'grant') add(op.member, op.asset, minor);
      if (op.kind === 'withdraw') add(op.member, 'CREDIT', -minor);
      const refund = op.kind === 'withdraw' ? decided.get(z.object({ id: z.string() }).parse(result).id) : undefined;
      if (refund?.status === 'failed') add(op.member, 'CREDIT', minor);
      if (op.kind === 'transfer') {
        add(op.member, 'WPOS', -minor);
        add(op.to, 'WPOS', minor);
      }
      if (op.kind === 'exchange') {
        const { paid, received } = z.object({ paid: z.string(), received: z.string() }).parse(result);
        expect(paid).toBe(formatMinor(minor));
        add(op.member, op.asset, -minor);
        add(op.member, op.asset === 'WPOS' ? 'CREDIT' : 'WPOS', toMinor(received));
      }
    }
    for (let index = 0; index < MEMBERS; index++) {
      const me = envelope<{ creditBalance: string; wposBalance: string }>(
        await (apps[index % apps.length] as FastifyInstance).inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(tokens[index] ?? '') }),
      );
      expect({ creditBalance: me.result?.creditBalance, wposBalance: me.result?.wposBalance }).toEqual({
        creditBalance: formatMinor(expected[index]?.CREDIT ?? 0n),
        wposBalance: formatMinor(expected[index]?.WPOS ?? 0n),
      });
    }

    // Records: every acknowledged movement exactly once, nothing else, never below zero. In id order: the engine draws
    // a transfer's entry ids debit first (PostgreSQL returns an unordered join in any order).
    const entries = await queryRows(
      ctx.db,
      sql`SELECT e.id, m.address, e.asset, e.amount, e.current_balance AS "balanceAfter", t.type, t.pending_id AS "withdrawalId", t.id AS "transferId"
          FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN members m ON m.id = a.member_id
          JOIN ledger_transfers t ON t.id = e.transfer_id WHERE t.type <> 'distribution'
          ORDER BY e.id`,
      z.object({ id: big, address: z.string(), asset: z.string(), amount: big, balanceAfter: big, type: z.string(), withdrawalId: big.nullable(), transferId: big }),
    );
    // A transfer and an exchange have two entries each: both members', or the member's in both assets; a failed
    // withdrawal has its refund too.
    expect(entries.length).toBe(acked.length + acked.filter(({ op }) => op.kind === 'transfer' || op.kind === 'exchange').length + refunded.length);
    expect(entries.every((entry) => entry.balanceAfter >= 0n)).toBe(true);
    const byEntry = new Map(entries.map((entry) => [entry.id.toString(), entry]));
    const byWithdrawal = new Map(entries.filter((entry) => entry.withdrawalId !== null && entry.amount < 0n).map((entry) => [entry.withdrawalId?.toString(), entry]));
    const refunds = entries.filter((entry) => entry.withdrawalId !== null && entry.amount > 0n);
    expect(refunds.map((entry) => [entry.withdrawalId?.toString(), entry.type, entry.amount]).sort()).toEqual(
      [...decided.entries()].filter(([, withdrawal]) => withdrawal.status === 'failed').map(([id, withdrawal]) => [id, 'withdraw', toMinor(withdrawal.amount)]).sort(),
    );
    const byTransfer = new Map<string, typeof entries>();
    for (const entry of entries) byTransfer.set(entry.transferId.toString(), [...(byTransfer.get(entry.transferId.toString()) ?? []), entry]);
    for (const { op, result } of acked) {
      const { id } = z.object({ id: z.string() }).parse(result);
      const leg = (entry: (typeof entries)[number] | undefined) => entry && { address: entry.address, asset: entry.asset, amount: entry.amount, type: entry.type };
      if (op.kind === 'transfer') {
        expect((byTransfer.get(id) ?? []).map(leg)).toEqual([
          { address: members[op.member]?.address, asset: 'WPOS', amount: -toMinor(op.amount), type: 'transfer' },
          { address: members[op.to]?.address, asset: 'WPOS', amount: toMinor(op.amount), type: 'transfer' },
        ]);
        continue;
      }
      if (op.kind === 'exchange') {
        // The answer's id is the paying leg's transfer.
        expect((byTransfer.get(id) ?? []).map(leg)).toEqual([{ address: members[op.member]?.address, asset: op.asset, amount: -toMinor(op.amount), type: 'exchange' }]);
        continue;
      }
      const entry = op.kind === 'grant' ? byEntry.get(id) : byWithdrawal.get(id);
      const sign = op.kind === 'grant' ? 1n : -1n;
      expect(leg(entry)).toEqual({
        address: members[op.member]?.address,
        asset: op.asset,
        amount: sign * toMinor(op.amount),
        type: op.kind === 'grant' ? 'reward' : 'withdraw',
      });
    }
    for (let index = 0; index < MEMBERS; index++) {
      const touches = ({ op }: Answer, asset: Asset) =>
        (op.member === index && (op.asset === asset || op.kind === 'exchange')) || (op.kind === 'transfer' && op.to === index && asset === 'WPOS');
      for (const [asset, url] of [['CREDIT', '/api/member/creditRecord'], ['WPOS', '/api/member/wposRecord']] as const) {
        const page = envelope<{ total: number }>(
          await (apps[0] as FastifyInstance).inject({ method: 'GET', url, headers: authHeaders(tokens[index] ?? ''), query: { pageSize: '1' } }),
        );
        const payoutsOf = asset === 'WPOS' ? (await queryRows(
          ctx.db,
          sql`SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id JOIN ledger_accounts a ON a.id = e.account_id
              JOIN members m ON m.id = a.member_id WHERE t.type = 'distribution' AND m.address = ${members[index]?.address}`,
          z.object({ n: z.number() }),
        ))[0]?.n ?? 0 : 0;
        const refundsOf = asset === 'CREDIT' ? refunded.filter((withdrawal) => withdrawal.member === index).length : 0;
        expect(page.result?.total).toBe(acked.filter((answer) => touches(answer, asset)).length + payoutsOf + refundsOf);
      }
    }
    await expectBooksBalanced(ctx.db);

    const counts = [...codes.entries()].sort(([a], [b]) => a - b).map(([code, count]) => `${code}: ${count}`).join(', ');
    console.log(
      `ledger concurrency [${ctx.target}, ${apps.length} instance(s)]: ${answers.length} requests in ${seconds.toFixed(1)} s ` +
        `(${Math.round(answers.length / seconds)}/s); ${acked.length} acknowledged movements; codes ${counts}; ` +
        `${paidDays.length} pool payouts from ${payouts.length} runs; ${decided.size} withdrawals decided among them, ${refunded.length} failed and refunded`,
    );
  });
}, { pgliteInThread: true });
