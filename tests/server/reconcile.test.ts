/**
 * Reconcile computes (docs/API.md, "Credit on chain"): what the ledger owes beside the token that backs
 * it on chain, the difference, and the lists an operator must act on, with `ok` false when anything is off. One real
 * node for the file; each test pays from a hot wallet and keeps a treasury of its own, so its figures are its own.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toMinor } from '../../api-schema/amount';
import type { Chain } from '../../server/chain/chain';
import { createPayer } from '../../server/chain/payer';
import { STUCK_REPORT_AFTER_MS } from '../../server/ledger/withdrawalLifecycle';
import { createTopUpWatcher } from '../../server/chain/topUpWatcher';
import { startTestChain, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant, treasuryHeaders, withdraw } from './support/testLedger';
import { accounts, envelope, signInBound } from './support/memberSignIn';

const CONFIRMATIONS = 3;

interface Reconciled {
  ok: boolean;
  chain: { treasury: string; payer: string | null };
  ledger: { members: string; payable: string; heldTopUps: string };
  owed: string;
  backing: string;
  difference: string;
  payer: { lost: string };
  lostPayments: { withdrawalId: string; address: string; amount: string; hash: string; reason: string }[];
  reorgedCredits: { txHash: string; address: string; amount: string; credited: boolean }[];
  stuckPayments: { withdrawalId: string; hash: string; reason: string; ageSeconds: number; payer: string }[];
}

describeWithDatabases('reconcile computes what is off', (ctx) => {
  let testChain: TestChain;
  beforeAll(async () => {
    testChain = await startTestChain({ confirmations: CONFIRMATIONS });
  }, 60_000);
  afterAll(async () => {
    await testChain.stop();
  });

  /** The app on the file's node with a treasury and hot wallet of this test's own. */
  async function setup(options: { payerTokens?: string; treasuryTokens?: string } = {}) {
    const treasury = privateKeyToAccount(generatePrivateKey()).address;
    const chain: Chain = { ...testChain.chain, settings: { ...testChain.chain.settings, treasury } };
    const payerKey = generatePrivateKey();
    const payerAddress = privateKeyToAccount(payerKey).address;
    await testChain.fund(payerAddress, options.payerTokens ?? '100');
    if (options.treasuryTokens) await testChain.fund(treasury, options.treasuryTokens);
    const app = await ctx.app({ chain, autoApproveMax: toMinor('100'), payer: { key: payerKey, holder: 'app' } });
    const payer = (key: Hex = payerKey) => createPayer({ db: ctx.db, chain, key, holder: 'app', now: ctx.clock.now, stuckAfterMs: 600_000 });
    return { app, chain, treasury, payerAddress, payer };
  }

  const reconcileOf = async (app: FastifyInstance): Promise<Reconciled> => {
    const body = envelope<Reconciled>(await app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: treasuryHeaders() }));
    expect(body.code).toBe(0);
    if (!body.result) throw new Error('reconcile answered no result');
    return body.result;
  };

  async function memberWithCredit(app: FastifyInstance, credit: string): Promise<string> {
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    expect(envelope(await grant(app, { address: accounts.alice.address, amount: credit, requestId: randomUUID() })).code).toBe(0);
    return token;
  }

  const withdrawn = async (app: FastifyInstance, token: string, amount: string) =>
    envelope<{ id: string; status: string }>(await withdraw(app, token, { amount, requestId: randomUUID() })).result;

  it('is ok when the treasury and the hot wallet back what members own and payable; the difference is the surplus', async () => {
    const s = await setup({ treasuryTokens: '100', payerTokens: '100' });
    const alice = await memberWithCredit(s.app, '100');
    expect((await withdrawn(s.app, alice, '20'))?.status).toBe('approved');
    // Reserved: 80 for alice, 19 payable, the fee 1 is the app's.
    expect(await reconcileOf(s.app)).toMatchObject({ ok: true, ledger: { members: '80', payable: '19', heldTopUps: '0' }, owed: '99', backing: '200', difference: '101' });
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 1 });
    // Mined, not yet deep: it has left the hot wallet and still counts as backing what payable holds for it.
    expect(await reconcileOf(s.app)).toMatchObject({ ok: true, chain: { payer: '81' }, owed: '99', backing: '200', difference: '101' });
    await testChain.mine(CONFIRMATIONS);
    expect(await payer.round()).toMatchObject({ posted: 1 });
    expect(await reconcileOf(s.app)).toMatchObject({ ok: true, ledger: { payable: '0' }, owed: '80', backing: '181', difference: '101' });
    await expectBooksBalanced(ctx.db);
  });

  it('says short, ok false, when credit was granted that no token backs', async () => {
    const s = await setup({ treasuryTokens: '10', payerTokens: '0' });
    await memberWithCredit(s.app, '25.5');
    expect(await reconcileOf(s.app)).toMatchObject({ ok: false, owed: '25.5', backing: '10', difference: '-15.5', lostPayments: [], stuckPayments: [] });
  });

  it('lists a paid withdrawal whose payment a reorganisation deeper than the confirmations removed, until it is mined again', async () => {
    const s = await setup({ treasuryTokens: '100', payerTokens: '100' });
    await testChain.mine(CONFIRMATIONS + 3);
    const alice = await memberWithCredit(s.app, '100');
    const id = (await withdrawn(s.app, alice, '20'))?.id;
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 1 });
    await testChain.mine(CONFIRMATIONS);
    expect(await payer.round()).toMatchObject({ posted: 1 });
    await testChain.rpc('anvil_reorg', [CONFIRMATIONS + 2, []]);
    expect(await payer.round()).toMatchObject({ lost: 1 });
    const lost = await reconcileOf(s.app);
    expect(lost).toMatchObject({ ok: false, payer: { lost: '19' } });
    expect(lost.lostPayments).toEqual([{ withdrawalId: id, address: accounts.alice.address, amount: '19', hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), reason: 'reorganised' }]);
    // The same bytes, mined again: nothing lost.
    expect(await payer.round()).toMatchObject({ lost: 0 });
    expect(await reconcileOf(s.app)).toMatchObject({ ok: true, lostPayments: [], payer: { lost: '0' } });
  });

  it('lists a payment unmined past the wait with its age and why: a fee below the base fee, a key no longer held', async () => {
    const s = await setup({ treasuryTokens: '100', payerTokens: '100' });
    const alice = await memberWithCredit(s.app, '100');
    await testChain.rpc('evm_setAutomine', [false]);
    try {
      const first = (await withdrawn(s.app, alice, '20'))?.id;
      expect(await s.payer().round()).toMatchObject({ signed: 1 });
      await testChain.rpc('anvil_setNextBlockBaseFeePerGas', [`0x${(500n * 10n ** 9n).toString(16)}`]);
      await testChain.mine(1);
      expect((await reconcileOf(s.app)).stuckPayments).toEqual([]);
      ctx.clock.advance(STUCK_REPORT_AFTER_MS + 1_000);
      const stuck = await reconcileOf(s.app);
      expect(stuck.ok).toBe(false);
      expect(stuck.stuckPayments).toEqual([
        { withdrawalId: first, hash: expect.stringMatching(/^0x/), nonce: '0', payer: s.payerAddress, ageSeconds: Math.floor(STUCK_REPORT_AFTER_MS / 1000) + 1, reason: 'fee' },
      ]);
      // The server now pays from another key: the old key's payment is listed as such.
      const rotated = generatePrivateKey();
      const app = await ctx.app({ chain: s.chain, payer: { key: rotated, holder: 'app' } });
      expect((await reconcileOf(app)).stuckPayments.map((entry) => [entry.payer as Address, entry.reason])).toEqual([[s.payerAddress, 'rotatedKey']]);
    } finally {
      await testChain.rpc('evm_setAutomine', [true]);
      await testChain.mine(1);
    }
  });

  it('lists a credited top-up whose transaction a deep reorganisation removed, and clears it once mined again', async () => {
    const s = await setup({ payerTokens: '0' });
    await signInBound(s.app, accounts.alice, ctx.clock.now());
    const watcher = createTopUpWatcher({ db: ctx.db, chain: s.chain, now: ctx.clock.now, startBlock: await testChain.head() });
    await testChain.fund(accounts.alice.address, '10');
    const hash = await testChain.transfer(accounts.alice, '7', { to: s.treasury });
    const raw = await testChain.rpc('eth_getRawTransactionByHash', [hash]);
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    expect(await reconcileOf(s.app)).toMatchObject({ ok: true, owed: '7', backing: '7', difference: '0', reorgedCredits: [] });
    await testChain.rpc('anvil_reorg', [CONFIRMATIONS + 1, []]);
    await testChain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    // Still credited (never a silent debit), the treasury short of it, and listed for the operator.
    expect(await reconcileOf(s.app)).toMatchObject({
      ok: false,
      owed: '7',
      backing: '0',
      difference: '-7',
      reorgedCredits: [{ txHash: hash, address: accounts.alice.address, amount: '7', credited: true }],
    });
    expect(await testChain.resend(raw)).toBe(hash);
    await testChain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    expect(await reconcileOf(s.app)).toMatchObject({ ok: true, difference: '0', reorgedCredits: [] });
    await expectBooksBalanced(ctx.db);
  });
});
