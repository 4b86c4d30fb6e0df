/**
 * The payer on a node restarted from its saved state (anvil --state, as `npm start`'s development chain is on its
 * second start): such a node has no state for the blocks before it loaded, so a nonce count asked at an older block
 * is refused. The payer's watch of voided payments asks at `watchBlocks` below the head; refused, it watches every
 * voided payment (more work, never less care) and the round goes on: withdrawals are still paid, once.
 */
import { randomUUID } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toMinor } from '../../api-schema/amount';
import { createPayer } from '../../server/chain/payer';
import { startTestChain, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant, withdraw } from './support/testLedger';
import { accounts, envelope, signInBound } from './support/memberSignIn';

describeWithDatabases('the payer on a restarted node', (ctx) => {
  let testChain: TestChain;
  beforeAll(async () => {
    testChain = await startTestChain({ confirmations: 1, persist: true });
  }, 60_000);
  afterAll(async () => {
    await testChain.stop();
  });

  it('pays after the node restarted from its saved state, though it cannot read the blocks before', async () => {
    const payerKey = generatePrivateKey();
    await testChain.fund(privateKeyToAccount(payerKey).address, '100');
    await testChain.fund(testChain.treasury, '100');
    const app = await ctx.app({ chain: testChain.chain, autoApproveMax: toMinor('100'), payer: { key: payerKey, holder: 'app' } });
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    expect(envelope(await grant(app, { address: accounts.alice.address, amount: '100', requestId: randomUUID() })).code).toBe(0);
    const payer = createPayer({ db: ctx.db, chain: testChain.chain, key: payerKey, holder: 'app', now: ctx.clock.now });
    expect(envelope(await withdraw(app, alice, { amount: '20', requestId: randomUUID() })).code).toBe(0);
    expect(await payer.round()).toMatchObject({ signed: 1 });
    await testChain.mine(1);
    expect(await payer.round()).toMatchObject({ posted: 1 });

    await testChain.restart();
    expect(envelope(await withdraw(app, alice, { amount: '30', requestId: randomUUID() })).code).toBe(0);
    expect(await payer.round()).toMatchObject({ signed: 1 });
    await testChain.mine(1);
    expect(await payer.round()).toMatchObject({ posted: 1 });
    await expectBooksBalanced(ctx.db);
  });
});
