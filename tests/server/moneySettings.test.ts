/**
 * The money settings on the desk (docs/API.md, "Operators: money settings"): finance changes the minimum and maximum
 * withdrawal, its fee, the daily cap, the exchange rate and the minimum transfer with a second finance operator
 * (the policy's `moneySettings`: never alone), each call audited; members see the new values in dappParam and the
 * ledger applies them to the next withdrawal. Over HTTP as the desk calls it, two operators at once too.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../../server/db/client';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant, withdraw } from './support/testLedger';
import { operatorWithSession, type TestOperator } from './support/financeDeskCalls';
import { accounts, envelope, signInBound } from './support/memberSignIn';

const SEEDED = { minWithdraw: '10', maxWithdraw: '5000', withdrawFee: '1', dailyWithdrawCap: '10000', exchangeRate: '0.5', minTransfer: '1' };

describeWithDatabases('money settings', (ctx) => {
  const put = (app: FastifyInstance, operator: TestOperator, values: Record<string, string>, requestId = randomUUID()) =>
    app.inject({ method: 'POST', url: '/api/admin/config/money', headers: operator.headers, payload: { ...values, requestId } });
  const view = async (app: FastifyInstance, operator: TestOperator) =>
    envelope<{ current: Record<string, string>; pending: { values: Record<string, string>; requestedBy: string } | null }>(
      await app.inject({ method: 'GET', url: '/api/admin/config/money', headers: operator.headers }),
    ).result;
  const announced = async (app: FastifyInstance) => envelope<Record<string, string>>(await app.inject({ method: 'GET', url: '/api/dapp/dappParam' })).result;
  const audited = async () =>
    queryRows(ctx.db, sql`SELECT actor_address AS actor FROM audit_log WHERE action = 'opsMoneySettingsPut' ORDER BY id`, z.object({ actor: z.string() }));

  it('takes two finance operators; members see the new values and the next withdrawal is held to them', async () => {
    const app = await ctx.app();
    const [ann, ben, sue] = [
      await operatorWithSession(ctx.db, ['finance'], ctx.clock.now()),
      await operatorWithSession(ctx.db, ['finance'], ctx.clock.now()),
      await operatorWithSession(ctx.db, ['support'], ctx.clock.now()),
    ];
    expect(await view(app, ann)).toEqual({ current: SEEDED, pending: null });
    const asked = { ...SEEDED, minWithdraw: '20', withdrawFee: '2.5' };
    const first = randomUUID();
    expect(envelope(await put(app, ann, asked, first))).toMatchObject({ code: 0, result: { applied: false, waitsForSecondApproval: true, approvals: [ann.address], current: SEEDED } });
    // The same request again answers the same; the values wait, members still see the old ones.
    expect(envelope(await put(app, ann, asked, first))).toMatchObject({ code: 0, result: { applied: false, approvals: [ann.address] } });
    expect(await view(app, ben)).toEqual({ current: SEEDED, pending: { values: asked, requestedBy: ann.address } });
    expect((await announced(app))?.minWithdraw).toBe('10');
    // Other values while these wait; a support operator; values that cannot stand together.
    expect(envelope(await put(app, ben, { ...asked, minTransfer: '7' })).code).toBe(3006);
    expect(envelope(await put(app, sue, asked)).code).toBe(1006);
    expect(envelope(await put(app, ben, { ...asked, withdrawFee: '20' }))).toMatchObject({ code: 1001, message: expect.stringContaining('withdrawFee') });
    expect(envelope(await put(app, ben, { ...asked, maxWithdraw: '15' })).code).toBe(1001);
    expect(envelope(await put(app, ben, asked))).toMatchObject({ code: 0, result: { applied: true, approvals: [ann.address, ben.address], current: asked } });
    expect(await announced(app)).toMatchObject({ minWithdraw: '20', withdrawFee: '2.5' });
    expect(await view(app, ann)).toEqual({ current: asked, pending: null });
    expect(await audited()).toEqual([{ actor: ann.address }, { actor: ben.address }]);

    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    expect(envelope(await grant(app, { address: accounts.alice.address, amount: '100', requestId: randomUUID() })).code).toBe(0);
    expect(envelope(await withdraw(app, alice, { amount: '15', requestId: randomUUID() })).code).toBe(3002);
    expect(envelope(await withdraw(app, alice, { amount: '25', requestId: randomUUID() }))).toMatchObject({ code: 0, result: { amount: '25', fee: '2.5' } });
    await expectBooksBalanced(ctx.db);
  });

  it('applies a change once when both operators ask at once, and the next change starts afresh', async () => {
    const app = await ctx.app();
    const [ann, ben] = [await operatorWithSession(ctx.db, ['finance'], ctx.clock.now()), await operatorWithSession(ctx.db, ['finance'], ctx.clock.now())];
    const asked = { ...SEEDED, exchangeRate: '0.75' };
    const answers = (await Promise.all([put(app, ann, asked), put(app, ben, asked)])).map((answer) => envelope<{ applied: boolean }>(answer));
    expect(answers.map((answer) => answer.code)).toEqual([0, 0]);
    expect(answers.map((answer) => answer.result?.applied).sort()).toEqual([false, true]);
    expect((await announced(app))?.exchangeRate).toBe('0.75');
    // A new change: the approvals of the last one do not count for it.
    expect(envelope(await put(app, ann, { ...asked, minTransfer: '2' })).result).toMatchObject({ applied: false, approvals: [ann.address] });
  });
});
