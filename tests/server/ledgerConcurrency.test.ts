/**
 * The ledger under load, on every database target: 5,000 concurrent withdrawals, grants and member-to-member
 * transfers (through the ledger engine's desk, the flow WPOS's transferWpos will use) among 20 members, with 10 %
 * replays of a request id and some repeats of an id with another body, sent in concurrent batches (on PostgreSQL
 * through two app instances on two pools, as behind a load balancer). Afterwards every member's
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
import { getAppConfig } from '../../server/config/appConfig';
import { createLedgerDesk, type LedgerDesk } from '../../server/ledger/engine';
import { memberTransferRequest } from '../../server/ledger/memberTransfers';
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
  kind: 'grant' | 'withdraw' | 'transfer';
  member: number;
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

describeWithDatabases('ledger under concurrency', (ctx) => {
  it(`keeps the books through ${REQUESTS} concurrent withdrawals, grants and transfers with replays`, { timeout: 240_000 }, async () => {
    const apps: FastifyInstance[] = [await ctx.app({ adminToken: TEST_ADMIN_TOKEN })];
    // Each instance's ledger desk, for the transfers (no route posts them until the WPOS issue).
    const desks: LedgerDesk<unknown>[] = [createLedgerDesk(ctx.db, { maxInFlight: ctx.target === 'pglite' ? 1 : 4, readContext: getAppConfig })];
    let second: Database | undefined;
    const url = (ctx.database as Partial<{ url: string }>).url;
    if (ctx.target === 'postgres' && url) {
      second = await openDatabase({ url, poolSize: 5 });
      apps.push(await buildApp({ db: second.db, now: ctx.clock.now, siweDomain: TEST_DOMAIN, spaDir: null, adminToken: TEST_ADMIN_TOKEN }));
      desks.push(createLedgerDesk(second.db, { maxInFlight: 4, readContext: getAppConfig }));
    }
    try {
      const rng = random(20261123);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
      const members = Array.from({ length: MEMBERS }, (_, index) => privateKeyToAccount(`0x${(index + 1).toString(16).padStart(64, '7')}`));
      const tokens: string[] = [];
      for (const account of members) tokens.push(await signInBound(apps[0] as FastifyInstance, account, ctx.clock.now()));
      const memberIds = (
        await queryRows(ctx.db, sql`SELECT id, address FROM members`, z.object({ id: z.number(), address: z.string() }))
      ).reduce<number[]>((ids, row) => {
        const index = members.findIndex((account) => account.address === row.address);
        if (index >= 0) ids[index] = row.id;
        return ids;
      }, []);

      const answerOf = (response: LightMyRequestResponse) => {
        const body = envelope(response);
        return { code: body.code, result: body.result };
      };
      const send = async (op: Operation, instance: number): Promise<{ code: number; result: unknown }> => {
        const app = apps[instance] as FastifyInstance;
        if (op.kind === 'grant') return answerOf(await grant(app, { address: members[op.member]?.address ?? '', amount: op.amount, requestId: op.requestId }));
        if (op.kind === 'withdraw') return answerOf(await withdraw(app, tokens[op.member] ?? '', { amount: op.amount, requestId: op.requestId }));
        const [fromMemberId, toMemberId] = [memberIds[op.member] ?? 0, memberIds[op.to] ?? 0];
        const now = ctx.clock.now();
        const request = { endpoint: 'transferCredit', asset: 'CREDIT', fromMemberId, toMemberId, amount: toMinor(op.amount), minimum: 0n, recipientAllowed: true, requestId: op.requestId, now } as const;
        const { code, result } = await (desks[instance] as LedgerDesk<unknown>).post(() => memberTransferRequest(request), now);
        return { code, result };
      };

      // Amounts with up to 6 decimals: grants 5..300, withdrawals 10..160 (minWithdraw 10, fee 1, daily cap 10000,
      // so some withdrawals meet the cap or a short balance), transfers 1..120 to another member.
      const amount = (min: number, max: number) => formatMinor(BigInt(min) * 1_000_000n + BigInt(Math.floor(rng() * (max - min) * 1_000_000)));
      const primary: Operation[] = Array.from({ length: REQUESTS }, () => {
        const draw = rng();
        const kind = draw < 0.35 ? 'grant' : draw < 0.8 ? 'withdraw' : 'transfer';
        const member = Math.floor(rng() * MEMBERS);
        const to = (member + 1 + Math.floor(rng() * (MEMBERS - 1))) % MEMBERS;
        const sized = { grant: amount(5, 300), withdraw: amount(10, 160), transfer: amount(1, 120) }[kind];
        return { kind, member, to, requestId: randomUUID(), amount: sized };
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
        const responses = await Promise.all(batch.map((op, index) => send(op, index % apps.length)));
        responses.forEach(({ code, result }, index) => answers.push({ op: batch[index] as Operation, code, result }));
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
      for (const { op } of acknowledged.values()) {
        expected[op.member] = (expected[op.member] ?? 0n) + (op.kind === 'grant' ? 1n : -1n) * toMinor(op.amount);
        if (op.kind === 'transfer') expected[op.to] = (expected[op.to] ?? 0n) + toMinor(op.amount);
      }
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
        sql`SELECT e.id, m.address, e.amount, e.current_balance AS "balanceAfter", t.type, t.withdrawal_id AS "withdrawalId", t.id AS "transferId"
            FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN members m ON m.id = a.member_id
            JOIN ledger_transfers t ON t.id = e.transfer_id`,
        z.object({ id: big, address: z.string(), amount: big, balanceAfter: big, type: z.string(), withdrawalId: big.nullable(), transferId: big }),
      );
      // A transfer has two entries, the sender's and the recipient's.
      expect(entries.length).toBe(acked.length + acked.filter(({ op }) => op.kind === 'transfer').length);
      expect(entries.every((entry) => entry.balanceAfter >= 0n)).toBe(true);
      const byEntry = new Map(entries.map((entry) => [entry.id.toString(), entry]));
      const byWithdrawal = new Map(entries.filter((entry) => entry.withdrawalId !== null).map((entry) => [entry.withdrawalId?.toString(), entry]));
      const byTransfer = new Map<string, typeof entries>();
      for (const entry of entries) byTransfer.set(entry.transferId.toString(), [...(byTransfer.get(entry.transferId.toString()) ?? []), entry]);
      for (const { op, result } of acked) {
        const { id } = z.object({ id: z.string() }).parse(result);
        if (op.kind === 'transfer') {
          const legs = (byTransfer.get(id) ?? []).map((entry) => ({ address: entry.address, amount: entry.amount, type: entry.type }));
          expect(legs).toEqual([
            { address: members[op.member]?.address, amount: -toMinor(op.amount), type: 'transfer' },
            { address: members[op.to]?.address, amount: toMinor(op.amount), type: 'transfer' },
          ]);
          continue;
        }
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
        expect(page.result?.total).toBe(acked.filter(({ op }) => op.member === index || (op.kind === 'transfer' && op.to === index)).length);
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
