/**
 * runOnce (server/ledger/idempotency.ts) on every database target: what repeats get, what a failure leaves behind,
 * and how long outcomes are kept.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import * as zm from 'zod/mini';
import { z } from 'zod';
import { ApiCode } from '../../api-schema/codes';
import { queryRows } from '../../server/db/client';
import { apiCodeOf, InsufficientBalanceError } from '../../server/errors';
import { canonicalJson, OUTCOME_RETENTION_MS, runOnce } from '../../server/ledger/idempotency';
import { describeWithDatabases } from './support/harness';
import { holdRequestKey } from './support/testLedger';

const result = zm.object({ n: zm.number() });

describeWithDatabases('runOnce', (ctx) => {
  const request = (requestId: string, body: Record<string, unknown> = { amount: '1' }) => ({
    scope: 'member:1',
    endpoint: 'test',
    requestId,
    body,
    now: ctx.clock.now(),
  });

  async function codeOf(run: Promise<unknown>): Promise<number | undefined> {
    try {
      await run;
      return ApiCode.ok;
    } catch (error) {
      return apiCodeOf(error);
    }
  }

  async function keys(): Promise<number> {
    const [row] = await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM idempotency_keys`, z.object({ n: z.number() }));
    return row?.n ?? 0;
  }

  it('runs the work once; a repeat gets the stored result; another body is 3003', async () => {
    let runs = 0;
    const id = randomUUID();
    const work = async () => ({ n: ++runs });
    expect(await runOnce(ctx.db, request(id), result, work)).toEqual({ n: 1 });
    expect(await runOnce(ctx.db, request(id, { amount: '1' }), result, work)).toEqual({ n: 1 });
    expect(await codeOf(runOnce(ctx.db, request(id, { amount: '2' }), result, work))).toBe(ApiCode.requestIdReused);
    expect(runs).toBe(1);
  });

  it('stores a rejection with its message and answers every repeat with it, without running again', async () => {
    let runs = 0;
    const id = randomUUID();
    const work = async () => {
      runs++;
      throw new InsufficientBalanceError();
    };
    expect(await codeOf(runOnce(ctx.db, request(id), result, work))).toBe(ApiCode.insufficientBalance);
    await expect(runOnce(ctx.db, request(id), result, work)).rejects.toThrow('Insufficient balance');
    expect(runs).toBe(1);
  });

  it('rolls back the work and stores nothing on an unexpected error, so a retry runs afresh', async () => {
    const id = randomUUID();
    await expect(
      runOnce(ctx.db, request(id), result, async (tx) => {
        await tx.execute(sql`INSERT INTO about (lang, title, content) VALUES ('xx', 't', 'c')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await keys()).toBe(0);
    const [about] = await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM about WHERE lang = 'xx'`, z.object({ n: z.number() }));
    expect(about?.n).toBe(0);
    expect(await runOnce(ctx.db, request(id), result, async () => ({ n: 7 }))).toEqual({ n: 7 });
  });

  // PGlite is one session, where advisory locks are re-entrant: a second request only ever runs after the first.
  it.skipIf(ctx.target === 'pglite')('answers 3005 while another transaction holds the key, and runs once that one ends without an outcome', async () => {
    const id = randomUUID();
    const { scope, endpoint } = request(id);
    // The first request, still running on another connection (it dies without storing an outcome).
    const first = await holdRequestKey(ctx.db, { scope, endpoint, requestId: id });
    let runs = 0;
    const work = async () => ({ n: ++runs });
    expect(await codeOf(runOnce(ctx.db, request(id), result, work))).toBe(ApiCode.requestInProgress);
    expect(await codeOf(runOnce(ctx.db, request(id, { amount: '2' }), result, work))).toBe(ApiCode.requestInProgress);
    expect(runs).toBe(0);
    await first.die();
    expect(await runOnce(ctx.db, request(id), result, work)).toEqual({ n: 1 });
  });

  it('keeps outcomes at least 24 hours; they are swept after 48', async () => {
    const id = randomUUID();
    let runs = 0;
    const work = async () => ({ n: ++runs });
    await runOnce(ctx.db, request(id), result, work);
    ctx.clock.advance(24 * 60 * 60 * 1000);
    expect(await runOnce(ctx.db, request(id), result, work)).toEqual({ n: 1 });
    ctx.clock.advance(OUTCOME_RETENTION_MS);
    // 256 requests sweep at least once; the old outcome is gone after that and its id runs again.
    for (let i = 0; i < 256; i++) await runOnce(ctx.db, request(randomUUID()), result, async () => ({ n: 0 }));
    expect(await runOnce(ctx.db, request(id), result, work)).toEqual({ n: 2 });
  });

  it('hashes bodies canonically: key order and undefined fields do not matter', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, '2'], c: undefined } })).toBe(canonicalJson({ a: { d: [1, '2'] }, b: 1 }));
  });
});
