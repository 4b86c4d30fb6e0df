/**
 * Auto-approval as a budget (docs/operations.md, "Credit on chain: paying withdrawals"):
 * AUTO_APPROVE_MAX is what one member's withdrawals may have approved on request in a UTC day, AUTO_APPROVE_HOURLY what
 * all members' may in an hour; a withdrawal past either waits for an operator (`pending`). Through HTTP, one instance
 * or several on one database, at once or one by one: the approved total never passes either budget, and the books
 * balance.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { PrivateKeyAccount } from 'viem';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { queryRows } from '../../server/db/client';
import { describeWithDatabases, type ServerTestContext } from './support/harness';
import { decide, expectBooksBalanced, grant, withdraw } from './support/testLedger';
import { accounts, envelope, signInBound } from './support/memberSignIn';

const HOUR = 3_600_000;

interface Budget {
  max: string;
  hourly?: string;
}

async function appWith(ctx: ServerTestContext, budget: Budget): Promise<FastifyInstance> {
  return ctx.app({ autoApproveMax: toMinor(budget.max), ...(budget.hourly ? { autoApproveHourly: toMinor(budget.hourly) } : {}) });
}

/** A signed-in member with `credit` granted; the daily cap raised so that only the budgets decide. */
async function memberWith(ctx: ServerTestContext, app: FastifyInstance, account: PrivateKeyAccount, credit: string): Promise<string> {
  const token = await signInBound(app, account, ctx.clock.now());
  expect(envelope(await grant(app, { address: account.address, amount: credit, requestId: randomUUID() })).code).toBe(0);
  return token;
}

async function raiseDailyCap(ctx: ServerTestContext): Promise<void> {
  await ctx.db.execute(sql`UPDATE app_config SET value = value || jsonb_build_object('dailyWithdrawCap', '1000000') WHERE id = 1`);
}

async function withdrawStatus(app: FastifyInstance, token: string, amount: string, requestId = randomUUID()): Promise<{ id: string; status: string }> {
  const body = envelope<{ id: string; status: string }>(await withdraw(app, token, { amount, requestId }));
  expect(body.code).toBe(0);
  return body.result ?? { id: '', status: '' };
}

/** The approved total by stage (approved, sent or posted: what an operator did not hold back), per member address. */
async function approvedTotals(ctx: ServerTestContext): Promise<Map<string, bigint>> {
  const rows = await queryRows(
    ctx.db,
    sql`SELECT lower(m.address) AS address, sum(w.amount)::text AS total FROM withdrawals w JOIN members m ON m.id = w.member_id
        JOIN ledger_pending d ON d.id = w.id WHERE d.stage IN ('approved', 'sent', 'posted') GROUP BY 1`,
    z.object({ address: z.string(), total: z.string() }),
  );
  return new Map(rows.map((row) => [row.address, BigInt(row.total)]));
}

const sum = (values: Iterable<bigint>) => [...values].reduce((total, value) => total + value, 0n);

describeWithDatabases('auto-approval budget', (ctx) => {
  it('reproduction: 10,000 split into 100-sized withdrawals is approved only up to AUTO_APPROVE_MAX a day; the rest waits', async () => {
    const app = await appWith(ctx, { max: '1000' });
    await raiseDailyCap(ctx);
    const alice = await memberWith(ctx, app, accounts.alice, '10000');
    const statuses: string[] = [];
    for (let index = 0; index < 15; index++) statuses.push((await withdrawStatus(app, alice, '100')).status);
    // Before: every one approved (per request). Now: 1000 a day, then pending.
    expect(statuses).toEqual([...Array<string>(10).fill('approved'), ...Array<string>(5).fill('pending')]);
    expect(await approvedTotals(ctx)).toEqual(new Map([[accounts.alice.address.toLowerCase(), toMinor('1000')]]));
    // The next UTC day has a new budget.
    ctx.clock.advance(24 * HOUR);
    expect((await withdrawStatus(app, alice, '100')).status).toBe('approved');
    await expectBooksBalanced(ctx.db);
  });

  it('answers the real status, the same on a replay of the request id; a failed approved withdrawal gives no budget back', async () => {
    const app = await appWith(ctx, { max: '100' });
    const alice = await memberWith(ctx, app, accounts.alice, '1000');
    const approvedId = randomUUID();
    const approved = await withdrawStatus(app, alice, '60', approvedId);
    const heldId = randomUUID();
    const held = await withdrawStatus(app, alice, '50', heldId);
    expect([approved.status, held.status]).toEqual(['approved', 'pending']);
    expect(await withdrawStatus(app, alice, '60', approvedId)).toEqual(approved);
    expect(await withdrawStatus(app, alice, '50', heldId)).toEqual(held);
    // The operator fails the approved one: the member is refunded, the 60 of today's budget stays spent.
    expect(envelope(await decide(app, { id: approved.id, status: 'failed' }))).toMatchObject({ code: 0, result: { status: 'failed' } });
    expect((await withdrawStatus(app, alice, '50')).status).toBe('pending');
    expect((await withdrawStatus(app, alice, '40')).status).toBe('approved');
    // An operator still approves a held one, past the budget.
    expect(envelope(await decide(app, { id: held.id, status: 'approved' }))).toMatchObject({ code: 0, result: { status: 'approved' } });
    await expectBooksBalanced(ctx.db);
  });

  it('bounds all members together by AUTO_APPROVE_HOURLY, then the next hour has a new one', async () => {
    const app = await appWith(ctx, { max: '100', hourly: '250' });
    const [alice, bob, carol] = [
      await memberWith(ctx, app, accounts.alice, '1000'),
      await memberWith(ctx, app, accounts.bob, '1000'),
      await memberWith(ctx, app, accounts.carol, '1000'),
    ];
    expect((await withdrawStatus(app, alice, '100')).status).toBe('approved');
    expect((await withdrawStatus(app, bob, '100')).status).toBe('approved');
    // 50 left of the hour: carol's 100 waits, her 50 fits.
    expect((await withdrawStatus(app, carol, '100')).status).toBe('pending');
    expect((await withdrawStatus(app, carol, '50')).status).toBe('approved');
    expect((await withdrawStatus(app, carol, '10')).status).toBe('pending');
    ctx.clock.advance(HOUR);
    // A new hour, the same day: carol has 50 of her day left, alice none.
    expect((await withdrawStatus(app, carol, '50')).status).toBe('approved');
    expect((await withdrawStatus(app, alice, '10')).status).toBe('pending');
    await expectBooksBalanced(ctx.db);
  });

  it('never approves past the daily budget for 30 withdrawals of one member at once, on every instance', async () => {
    const instances = await ctx.instances({ autoApproveMax: toMinor('95') });
    const alice = await memberWith(ctx, instances[0] as FastifyInstance, accounts.alice, '1000');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => withdrawStatus(instances[index % instances.length] as FastifyInstance, alice, '10')));
    // 9 × 10 = 90 fit the 95; a 10th would pass it.
    expect(answers.filter((answer) => answer.status === 'approved').length).toBe(9);
    expect(answers.filter((answer) => answer.status === 'pending').length).toBe(21);
    expect(await approvedTotals(ctx)).toEqual(new Map([[accounts.alice.address.toLowerCase(), toMinor('90')]]));
    await expectBooksBalanced(ctx.db);
  });

  it('never approves past either budget for several members withdrawing at once, on every instance', async () => {
    const instances = await ctx.instances({ autoApproveMax: toMinor('100'), autoApproveHourly: toMinor('250') });
    const members = [accounts.alice, accounts.bob, accounts.carol, accounts.dave, accounts.mallory];
    const tokens: string[] = [];
    for (const account of members) tokens.push(await memberWith(ctx, instances[0] as FastifyInstance, account, '1000'));
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => withdrawStatus(instances[index % instances.length] as FastifyInstance, tokens[index % tokens.length] ?? '', '20')),
    );
    const totals = await approvedTotals(ctx);
    for (const total of totals.values()) expect(total).toBeLessThanOrEqual(toMinor('100'));
    // The hour's 250 holds 12 withdrawals of 20; members' days (5 × 100) would hold more, so exactly 12.
    expect(sum(totals.values())).toBe(toMinor('240'));
    expect(answers.filter((answer) => answer.status === 'approved').length).toBe(12);
    await expectBooksBalanced(ctx.db);
  });
});
