/**
 * The business gauges of GET /metrics (docs/operations.md, "Metrics and alerts") against the ledger and a real node:
 * withdrawals by stage with the oldest's age, an approval waiting for a second operator, a held top-up, the scheduled
 * reconcile's verdict and difference (one instance under the lease), the hot wallet's token, gas and runway, and the
 * chain's head and the watcher's cursor.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { toMinor } from '../../api-schema/amount';
import { chainDeskSuite, withdrawn } from './support/chainDesk';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant } from './support/testLedger';
import { gaugeValue, scrape } from './support/metricsScrape';
import { approve, operatorWithSession } from './support/financeDeskCalls';
import { accounts, envelope, signInBound } from './support/memberSignIn';

const CONFIRMATIONS = 2;

describeWithDatabases('metrics: the business gauges', (ctx) => {
  const setup = chainDeskSuite(ctx, CONFIRMATIONS);

  it('shows the queues, the held top-up, reconcile and the hot wallet as the ledger and the chain have them', async () => {
    const s = await setup();
    const alice = await signInBound(s.app, accounts.alice, ctx.clock.now());
    expect(envelope(await grant(s.app, { address: accounts.alice.address, amount: '200', requestId: randomUUID() })).code).toBe(0);
    const small = await withdrawn(s.app, alice, '12');
    expect(small.status).toBe('approved');
    const big = await withdrawn(s.app, alice, '40');
    await withdrawn(s.app, alice, '20');
    ctx.clock.advance(90_000);
    const ann = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    expect(envelope(await approve(s.app, ann, big.id))).toMatchObject({ code: 0, result: { waitsForSecondApproval: true } });
    ctx.clock.advance(30_000);
    // A top-up from an address that is no member: held.
    await s.testChain.fund(accounts.carol.address, '20');
    await s.testChain.transfer(accounts.carol, '12', { to: s.chain.settings.treasury });
    await s.testChain.mine(CONFIRMATIONS);
    expect(await s.watcher.runOnce()).toMatchObject({ held: 1 });

    let families = await scrape(s.app);
    expect(gaugeValue(families, 'member_dapp_withdrawals', { stage: 'held' })).toBe(2);
    expect(gaugeValue(families, 'member_dapp_withdrawals', { stage: 'approved' })).toBe(1);
    expect(gaugeValue(families, 'member_dapp_withdrawals', { stage: 'sent' })).toBe(0);
    expect(gaugeValue(families, 'member_dapp_withdrawal_oldest_age_seconds', { stage: 'held' })).toBe(120);
    expect(gaugeValue(families, 'member_dapp_approvals_waiting')).toBe(1);
    expect(gaugeValue(families, 'member_dapp_approval_oldest_wait_seconds')).toBe(30);
    expect(gaugeValue(families, 'member_dapp_held_top_ups')).toBe(1);
    expect(gaugeValue(families, 'member_dapp_held_top_ups_credits')).toBe(12);
    // No scheduled run yet: no verdict is shown rather than a made-up one.
    expect(gaugeValue(families, 'member_dapp_reconcile_ok')).toBeUndefined();
    expect(gaugeValue(families, 'member_dapp_chain_head_block')).toBe(Number(await s.testChain.head()));
    // The watcher reads only what is at depth: its cursor trails the head by the confirmations.
    expect(gaugeValue(families, 'member_dapp_watcher_behind_blocks')).toBe(CONFIRMATIONS);

    const run = await s.app.reconcileRound();
    expect(run).toMatchObject({ ok: true });
    // Owed: alice's 128 left, 69 payable (12 + 40 + 20, less a fee of 1 each), 12 held; backing 1012 + 100.
    const owed = toMinor('128') + toMinor('69') + toMinor('12');
    expect(run?.difference).toBe(toMinor('1112') - owed);
    families = await scrape(s.app);
    expect(gaugeValue(families, 'member_dapp_reconcile_ok')).toBe(1);
    expect(gaugeValue(families, 'member_dapp_reconcile_difference_credits')).toBe(Number(toMinor('1112') - owed) / 1e6);
    expect(gaugeValue(families, 'member_dapp_hot_wallet_token_credits')).toBe(100);
    expect(gaugeValue(families, 'member_dapp_hot_wallet_gas_wei')).toBeGreaterThan(0);
    expect(gaugeValue(families, 'member_dapp_hot_wallet_runway_seconds', { resource: 'token' })).toBe(Number.POSITIVE_INFINITY);
    expect(gaugeValue(families, 'member_dapp_payments_lost')).toBe(0);

    // The approved one paid and posted: a week's pace of one payment gives the runways.
    await s.payer.round();
    await s.testChain.mine(CONFIRMATIONS + 1);
    await s.payer.round();
    expect(gaugeValue(await scrape(s.app), 'member_dapp_withdrawals', { stage: 'approved' })).toBe(0);
    const paid = await s.app.reconcileRound();
    const token = toMinor(paid?.result.chain.payer ?? '0');
    const net = toMinor('12') - toMinor(small.fee);
    families = await scrape(s.app);
    expect(gaugeValue(families, 'member_dapp_hot_wallet_runway_seconds', { resource: 'token' })).toBe(Number((token * 7n * 86_400n) / net));
    const gasRunway = gaugeValue(families, 'member_dapp_hot_wallet_runway_seconds', { resource: 'gas' });
    expect(gasRunway).toBeGreaterThan(0);
    expect(Number.isFinite(gasRunway)).toBe(true);
    await expectBooksBalanced(ctx.db);
  });

  it('runs the scheduled reconcile on one instance: the lease holder stores it, every instance shows it', async () => {
    const s = await setup();
    const second = await ctx.app({ ...s.options, reconcile: { holder: 'second' }, payer: undefined });
    expect(await second.reconcileRound()).toMatchObject({ ok: true });
    // The second instance holds the lease now: the first's round runs nothing until the lease expires.
    expect(await s.app.reconcileRound()).toBeUndefined();
    expect(gaugeValue(await scrape(s.app), 'member_dapp_reconcile_ok')).toBe(1);
    // The holder stops: it gives the lease up, and the other takes the job over at its next round.
    await second.close();
    expect(await s.app.reconcileRound()).toMatchObject({ ok: true });
  });
});
