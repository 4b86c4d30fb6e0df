/**
 * A server on a real node with its own treasury, a funded hot wallet and the payer, watcher and reconcile of one
 * instance, for the suites that read what operators see of the chain (metricsBusiness, opsOverview); and a
 * member's withdrawal that must be accepted.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, expect } from 'vitest';
import { toMinor } from '../../../api-schema/amount';
import type { Chain } from '../../../server/chain/chain';
import { createPayer } from '../../../server/chain/payer';
import { createTopUpWatcher } from '../../../server/chain/topUpWatcher';
import { sharedTestChain, type TestChain } from './testChain';
import type { ServerTestContext } from './harness';
import { withdraw } from './testLedger';
import { envelope } from './memberSignIn';

/**
 * A suite's chain desks: one node for the file (stopped after it), back at its first state for each test's desk.
 *
 * @example const setup = chainDeskSuite(ctx, 2); it('…', async () => { const s = await setup(); … });
 */
export function chainDeskSuite(ctx: ServerTestContext, confirmations: number) {
  const shared = sharedTestChain({ confirmations });
  afterAll(() => shared.stop());
  return async () => setupChainDesk(ctx, await shared.next());
}

/** Auto-approved up to 15 a member's day; above 30 two approvals. Hot wallet 100, treasury 1000. */
async function setupChainDesk(ctx: ServerTestContext, testChain: TestChain) {
  const treasury = privateKeyToAccount(generatePrivateKey()).address;
  const chain: Chain = { ...testChain.chain, settings: { ...testChain.chain.settings, treasury } };
  const payerKey = generatePrivateKey();
  const payerAddress = privateKeyToAccount(payerKey).address;
  await testChain.fund(payerAddress, '100');
  await testChain.fund(treasury, '1000');
  // The watcher reads from here on: the treasury's funding above is not a top-up of anyone's.
  const startBlock = (await testChain.head()) + 1n;
  const options = {
    chain,
    autoApproveMax: toMinor('15'),
    approvalQuorumAbove: toMinor('30'),
    payer: { key: payerKey, holder: 'first' },
    topUpWatcher: { startBlock },
    reconcile: { holder: 'first' },
  };
  const app = await ctx.app(options);
  const payer = createPayer({ db: ctx.db, chain, key: payerKey, holder: 'first', now: ctx.clock.now });
  const watcher = createTopUpWatcher({ db: ctx.db, chain, now: ctx.clock.now, startBlock });
  return { app, chain, payer, watcher, payerAddress, options, testChain };
}

/** A member's withdrawal of `amount`, accepted: its id, status and fee. */
export async function withdrawn(app: FastifyInstance, token: string, amount: string) {
  const body = envelope<{ id: string; status: string; fee: string }>(await withdraw(app, token, { amount, requestId: randomUUID() }));
  expect(body.code).toBe(0);
  if (!body.result) throw new Error('no withdrawal');
  return body.result;
}
