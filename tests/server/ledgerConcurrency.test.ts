/**
 * The ledger under load, on every database target: 5,000 concurrent withdrawals and grants among 20 members, with
 * 10 % replays of a request id and some repeats of an id with another body, sent in concurrent batches (on
 * PostgreSQL through two app instances on two pools, as behind a load balancer). Afterwards every member's
 * balance is what the acknowledged answers imply, nothing went negative, the books balance, and every acknowledged
 * movement is in the records exactly once.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { privateKeyToAccount } from 'viem/accounts';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { ApiCode } from '../../api-schema/codes';
import { buildApp } from '../../server/app';
import { openDatabase, queryRows, type Database } from '../../server/db/client';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant, TEST_ADMIN_TOKEN, withdraw } from './support/ledger';
import { authHeaders, envelope, signInBound, TEST_DOMAIN } from './support/siwe';

const MEMBERS = 20;
const REQUESTS = 5_000;
const REPLAY_SHARE = 0.1;
const OTHER_BODY_SHARE = 0.02;
const BATCH = 100;

/** mulberry32: a small seeded generator, so a failing run can be repeated. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Operation {
  kind: 'grant' | 'withdraw';
  member: number;
  requestId: string;
  amount: string;
}

interface Answer {
  op: Operation;
  code: number;
  result: unknown;
}

describeWithDatabases('ledger under concurrency', (ctx) => {
  it(`keeps the books through ${REQUESTS} concurrent withdrawals and grants with replays`, { timeout: 240_000 }, async () => {
    const apps: FastifyInstance[] = [await ctx.app({ adminToken: TEST_ADMIN_TOKEN })];
    let second: Database | undefined;
    const url = (ctx.database as Partial<{ url: string }>).url;
    if (ctx.target === 'postgres' && url) {
      second = await openDatabase({ url, poolSize: 5 });
      apps.push(await buildApp({ db: second.db, now: ctx.clock.now, siweDomain: TEST_DOMAIN, spaDir: null, adminToken: TEST_ADMIN_TOKEN }));
    }
    try {
      const rng = random(20261123);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
      const members = Array.from({ length: MEMBERS }, (_, index) => privateKeyToAccount(`0x${(index + 1).toString(16).padStart(64, '7')}`));
      const tokens: string[] = [];
      for (const account of members) tokens.push(await signInBound(apps[0] as FastifyInstance, account, ctx.clock.now()));

      const send = (op: Operation, app: FastifyInstance): Promise<LightMyRequestResponse> =>
        op.kind === 'grant'
          ? grant(app, { address: members[op.member]?.address ?? '', amount: op.amount, requestId: op.requestId })
          : withdraw(app, tokens[op.member] ?? '', { amount: op.amount, requestId: op.requestId });

      // Amounts with up to 6 decimals: grants 5..300, withdrawals 10..160 (minWithdraw 10, fee 1, daily cap 10000,
      // so some withdrawals meet the cap or a short balance).
      const amount = (min: number, max: number) => formatMinor(BigInt(min) * 1_000_000n + BigInt(Math.floor(rng() * (max - min) * 1_000_000)));
      const primary: Operation[] = Array.from({ length: REQUESTS }, () => {
        const kind = rng() < 0.4 ? 'grant' : 'withdraw';
        return { kind, member: Math.floor(rng() * MEMBERS), requestId: randomUUID(), amount: kind === 'grant' ? amount(5, 300) : amount(10, 160) };
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
      const started = performance.now();
      for (let offset = 0; offset < all.length; offset += BATCH) {
        const batch = all.slice(offset, offset + BATCH);
        const responses = await Promise.all(batch.map((op, index) => send(op, apps[index % apps.length] as FastifyInstance)));
        responses.forEach((response, index) => {
          const body = envelope(response);
          answers.push({ op: batch[index] as Operation, code: body.code, result: body.result });
        });
      }
      const seconds = (performance.now() - started) / 1000;

      // Only these codes; and per request id, every acknowledgement is the same answer to the same body.
      const codes = new Map<number, number>();
      for (const answer of answers) codes.set(answer.code, (codes.get(answer.code) ?? 0) + 1);
      expect([...codes.keys()].filter((code) => ![0, 3001, 3002, 3003, 3005].includes(code))).toEqual([]);
      const acknowledged = new Map<string, Answer>();
      for (const answer of answers.filter((a) => a.code === ApiCode.ok)) {
        const first = acknowledged.get(answer.op.requestId);
        if (first) expect({ amount: answer.op.amount, result: answer.result }).toEqual({ amount: first.op.amount, result: first.result });
        else acknowledged.set(answer.op.requestId, answer);
      }

      // Balances: what the acknowledged answers imply.
      const expected = members.map(() => 0n);
      for (const { op } of acknowledged.values()) expected[op.member] = (expected[op.member] ?? 0n) + (op.kind === 'grant' ? 1n : -1n) * toMinor(op.amount);
      for (let index = 0; index < MEMBERS; index++) {
        const me = envelope<{ creditBalance: string }>(
          await (apps[index % apps.length] as FastifyInstance).inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(tokens[index] ?? '') }),
        );
        expect(me.result?.creditBalance).toBe(formatMinor(expected[index] ?? 0n));
      }

      // Records: every acknowledged movement exactly once, nothing else, never below zero.
      const acked = [...acknowledged.values()];
      const big = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));
      const entries = await queryRows(
        ctx.db,
        sql`SELECT e.id, m.address, e.amount, e.current_balance AS "balanceAfter", t.type, t.withdrawal_id AS "withdrawalId"
            FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN members m ON m.id = a.member_id
            JOIN ledger_transfers t ON t.id = e.transfer_id`,
        z.object({ id: big, address: z.string(), amount: big, balanceAfter: big, type: z.string(), withdrawalId: big.nullable() }),
      );
      expect(entries.length).toBe(acked.length);
      expect(entries.every((entry) => entry.balanceAfter >= 0n)).toBe(true);
      const byEntry = new Map(entries.map((entry) => [entry.id.toString(), entry]));
      const byWithdrawal = new Map(entries.filter((entry) => entry.withdrawalId !== null).map((entry) => [entry.withdrawalId?.toString(), entry]));
      for (const { op, result } of acked) {
        const { id } = z.object({ id: z.string() }).parse(result);
        const entry = op.kind === 'grant' ? byEntry.get(id) : byWithdrawal.get(id);
        const sign = op.kind === 'grant' ? 1n : -1n;
        expect(entry && { address: entry.address, amount: entry.amount, type: entry.type }).toEqual({
          address: members[op.member]?.address,
          amount: sign * toMinor(op.amount),
          type: op.kind === 'grant' ? 'reward' : 'withdraw',
        });
      }
      for (let index = 0; index < MEMBERS; index++) {
        const page = envelope<{ total: number }>(
          await (apps[0] as FastifyInstance).inject({ method: 'GET', url: '/api/member/creditRecord', headers: authHeaders(tokens[index] ?? ''), query: { pageSize: '1' } }),
        );
        expect(page.result?.total).toBe(acked.filter(({ op }) => op.member === index).length);
      }
      await expectBooksBalanced(ctx.db);

      const counts = [...codes.entries()].sort(([a], [b]) => a - b).map(([code, count]) => `${code}: ${count}`).join(', ');
      console.log(
        `ledger concurrency [${ctx.target}, ${apps.length} instance(s)]: ${answers.length} requests in ${seconds.toFixed(1)} s ` +
          `(${Math.round(answers.length / seconds)}/s); ${acked.length} acknowledged movements; codes ${counts}`,
      );
    } finally {
      await Promise.all(apps.slice(1).map((app) => app.close()));
      await second?.close();
    }
  });
});
