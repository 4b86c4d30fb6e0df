/**
 * adminGrant became opsGrant (docs/decisions/0040-ops-grant-answers-admin-grant-outcomes.md): a grant the previous
 * release stored under its old name (outcomes are kept 48 h) still answers its retry after the deploy, over HTTP as
 * an operator retries, on both databases. Nothing is granted twice.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { ApiCode } from '../../api-schema/codes';
import { queryRows } from '../../server/db/client';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced } from './support/testLedger';
import { operatorWithSession } from './support/financeDeskCalls';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

describeWithDatabases('opsGrant carries adminGrant over', (ctx) => {
  it('answers a grant stored under adminGrant from its stored outcome, and refuses its id with another body', async () => {
    const app = await ctx.app({ policyLimits: {} });
    const bob = await signInBound(app, accounts.bob, ctx.clock.now());
    const ann = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    const body = { address: accounts.bob.address, asset: 'CREDIT', amount: '10', requestId: randomUUID() };
    const grant = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/admin/grant', headers: ann.headers, payload });
    const first = envelope<{ id: string; balanceAfter: string }>(await grant(body));
    expect(first).toMatchObject({ code: 0, result: { balanceAfter: '10' } });

    // The previous release did the same work under the old name: its stored outcome is this one, named adminGrant.
    await ctx.db.execute(sql`UPDATE idempotency_keys SET endpoint = 'adminGrant' WHERE endpoint = 'opsGrant' AND request_id = ${body.requestId}`);
    const names = await queryRows(ctx.db, sql`SELECT endpoint FROM idempotency_keys WHERE request_id = ${body.requestId}`, z.object({ endpoint: z.string() }));
    expect(names).toEqual([{ endpoint: 'adminGrant' }]);

    expect(envelope(await grant(body))).toEqual(first);
    expectRefused(await grant({ ...body, amount: '11' }), ApiCode.requestIdReused);
    const credit = envelope<{ creditBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(bob) })).result;
    expect(credit?.creditBalance).toBe('10');
    // A new request id is a new grant, stored under the new name.
    expect(envelope(await grant({ ...body, requestId: randomUUID() }))).toMatchObject({ code: 0, result: { balanceAfter: '20' } });
    const audit = await queryRows(ctx.db, sql`SELECT action FROM audit_log WHERE action IN ('adminGrant', 'opsGrant') ORDER BY id`, z.object({ action: z.string() }));
    expect(audit).toEqual([{ action: 'opsGrant' }, { action: 'opsGrant' }]);
    await expectBooksBalanced(ctx.db);
  });
});
