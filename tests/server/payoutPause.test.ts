/**
 * Payouts stop on doubt (docs/API.md, "Credit on chain: payouts paused"), each cause made real on a real node: a
 * reconcile short of tokens (a direct chain transfer out of the treasury), a stale chain (its newest block older than
 * the threshold). The lost and unknown payments' pauses are in payer.test.ts, beside the faults that make them. The
 * payer signs nothing new while paused, yet what it signed before still posts; members see why on dappParam; the
 * desk sees it in reconcile; resuming takes two finance operators, is refused while a cause holds, and is audited.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createWalletClient, erc20Abi, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import type { Chain } from '../../server/chain/chain';
import { queryRows } from '../../server/db/client';
import { startTestChain, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant, treasuryHeaders, withdraw } from './support/testLedger';
import { operatorWithSession, resumePayouts } from './support/financeDeskCalls';
import { accounts, envelope, signInBound } from './support/memberSignIn';

interface Pause {
  id: string;
  causes: { cause: string; detail: string }[];
  approvals: string[];
}

describeWithDatabases('payouts paused on doubt', (ctx) => {
  let testChain: TestChain;
  beforeAll(async () => {
    testChain = await startTestChain({ confirmations: 1 });
  }, 60_000);
  afterAll(async () => {
    await testChain.stop();
  });

  async function setup() {
    const treasury = privateKeyToAccount(generatePrivateKey()).address;
    const chain: Chain = { ...testChain.chain, settings: { ...testChain.chain.settings, treasury } };
    const payerKey = generatePrivateKey();
    await testChain.fund(privateKeyToAccount(payerKey).address, '100');
    await testChain.fund(treasury, '1000');
    const app = await ctx.app({ chain, autoApproveMax: toMinor('50'), payer: { key: payerKey, holder: 'first' }, reconcile: { holder: 'first' } });
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    expect(envelope(await grant(app, { address: accounts.alice.address, amount: '300', requestId: randomUUID() })).code).toBe(0);
    const ann = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    const sue = await operatorWithSession(ctx.db, ['support'], ctx.clock.now());
    return { app, alice, treasury, ann, ben, sue };
  }

  const withdrawn = async (app: FastifyInstance, token: string, amount: string) => {
    const body = envelope<{ id: string }>(await withdraw(app, token, { amount, requestId: randomUUID() }));
    expect(body.code).toBe(0);
    return body.result?.id ?? '';
  };
  const stageOf = async (id: string) =>
    (await queryRows(ctx.db, sql`SELECT stage FROM ledger_pending WHERE id = ${id}::bigint`, z.object({ stage: z.string() })))[0]?.stage;
  const pausedForMembers = async (app: FastifyInstance) =>
    envelope<{ withdrawalsPaused?: { since: string; causes: string[] } }>(await app.inject({ method: 'GET', url: '/api/dapp/dappParam' })).result?.withdrawalsPaused;
  const pauseOnDesk = async (app: FastifyInstance) =>
    envelope<{ pause: Pause | null }>(await app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: treasuryHeaders() })).result?.pause ?? null;
  const audited = async () =>
    queryRows(
      ctx.db,
      sql`SELECT action, actor_address AS actor, via FROM audit_log WHERE action IN ('payoutsPaused', 'opsPayoutsResume') ORDER BY id`,
      z.object({ action: z.string(), actor: z.string().nullable(), via: z.string() }),
    );

  it('a reconcile short of tokens pauses payouts: nothing new is signed, what was signed posts; two finance operators resume once the tokens are back', async () => {
    const s = await setup();
    const first = await withdrawn(s.app, s.alice, '10');
    expect(await s.app.payerRound()).toMatchObject({ signed: 1, paused: false });
    // 900 leave the treasury on chain behind the ledger's back: the members' 300 are no longer backed.
    await testChain.rpc('anvil_impersonateAccount', [s.treasury]);
    await testChain.rpc('anvil_setBalance', [s.treasury, '0xde0b6b3a7640000']);
    const treasuryWallet = createWalletClient({ account: s.treasury, transport: http(testChain.node.url) });
    await treasuryWallet.writeContract({ address: testChain.token, abi: erc20Abi, functionName: 'transfer', args: [accounts.dave.address, parseUnits('900', testChain.decimals)], chain: null });
    expect((await s.app.reconcileRound())?.ok).toBe(false);
    const second = await withdrawn(s.app, s.alice, '20');
    expect(await s.app.payerRound()).toMatchObject({ posted: 1, signed: 0, paused: true });
    expect(await s.app.payerRound()).toMatchObject({ signed: 0, paused: true });
    expect([await stageOf(first), await stageOf(second)]).toEqual(['posted', 'approved']);
    expect((await pausedForMembers(s.app))?.causes).toEqual(['reconcile']);
    const pause = await pauseOnDesk(s.app);
    expect(pause?.causes.map((doubt) => doubt.cause)).toEqual(['reconcile']);
    const pauseId = pause?.id ?? '';

    // Refused while the books are short, by anyone; a support operator may not resume at all.
    expect(envelope(await resumePayouts(s.app, s.ann, pauseId)).code).toBe(3010);
    await testChain.fund(s.treasury, '900');
    expect(envelope(await resumePayouts(s.app, s.sue, pauseId)).code).toBe(1006);
    // The first finance operator's call waits; asking again changes nothing; a second one resumes.
    expect(envelope(await resumePayouts(s.app, s.ann, pauseId))).toMatchObject({ code: 0, result: { resumed: false, waitsForSecondApproval: true, approvals: [s.ann.address] } });
    expect((await pauseOnDesk(s.app))?.approvals).toEqual([s.ann.address]);
    expect(envelope(await resumePayouts(s.app, s.ann, pauseId))).toMatchObject({ code: 0, result: { resumed: false, approvals: [s.ann.address] } });
    expect(await s.app.payerRound()).toMatchObject({ signed: 0, paused: true });
    expect(envelope(await resumePayouts(s.app, s.ben, pauseId))).toMatchObject({ code: 0, result: { resumed: true, approvals: [s.ann.address, s.ben.address] } });
    // Resumed once: a late call on that pause is 3006, an unknown one 4004.
    expect(envelope(await resumePayouts(s.app, s.ben, pauseId)).code).toBe(3006);
    expect(envelope(await resumePayouts(s.app, s.ben, '999999')).code).toBe(4004);

    expect(await s.app.payerRound()).toMatchObject({ signed: 1, paused: false });
    await testChain.mine(1);
    expect(await s.app.payerRound()).toMatchObject({ posted: 1, paused: false });
    expect(await stageOf(second)).toBe('posted');
    expect(await pausedForMembers(s.app)).toBeUndefined();
    expect(await pauseOnDesk(s.app)).toBeNull();
    expect(await audited()).toEqual([
      { action: 'payoutsPaused', actor: null, via: 'system' },
      { action: 'opsPayoutsResume', actor: s.ann.address, via: 'session' },
      { action: 'opsPayoutsResume', actor: s.ben.address, via: 'session' },
    ]);
    const [closed] = await queryRows(ctx.db, sql`SELECT resumed_by AS "resumedBy", confirmed_by AS "confirmedBy" FROM payout_pauses WHERE id = ${pauseId}::bigint`, z.object({ resumedBy: z.string(), confirmedBy: z.string() }));
    expect(closed).toEqual({ resumedBy: s.ann.address, confirmedBy: s.ben.address });
    await expectBooksBalanced(ctx.db);
  });

  it('a stale chain pauses payouts, and they resume only once a new block has come', async () => {
    // The server's clock near the node's (the tests' clock starts days before), so its blocks are minutes old at most.
    ctx.clock.set(new Date());
    const s = await setup();
    const id = await withdrawn(s.app, s.alice, '10');
    const head = await testChain.chain.client.getBlock({ blockTag: 'latest' });
    // 301 s past the newest block: older than the 300 s threshold.
    ctx.clock.set(new Date((Number(head.timestamp) + 301) * 1000));
    expect(await s.app.payerRound()).toMatchObject({ signed: 0, paused: true });
    expect((await pausedForMembers(s.app))?.causes).toEqual(['chainStale']);
    const pauseId = (await pauseOnDesk(s.app))?.id ?? '';
    expect(envelope(await resumePayouts(s.app, s.ann, pauseId)).code).toBe(3010);
    // A block 10 s old comes: the chain moves again, yet payouts stay paused until two operators resume them.
    await testChain.rpc('evm_setNextBlockTimestamp', [Number(head.timestamp) + 291]);
    await testChain.mine(1);
    expect(await s.app.payerRound()).toMatchObject({ signed: 0, paused: true });
    expect(envelope(await resumePayouts(s.app, s.ann, pauseId)).result).toMatchObject({ waitsForSecondApproval: true });
    expect(envelope(await resumePayouts(s.app, s.ben, pauseId)).result).toMatchObject({ resumed: true });
    expect(await s.app.payerRound()).toMatchObject({ signed: 1, paused: false });
    await testChain.mine(1);
    expect(await s.app.payerRound()).toMatchObject({ posted: 1 });
    expect(await stageOf(id)).toBe('posted');
    await expectBooksBalanced(ctx.db);
  });
});
