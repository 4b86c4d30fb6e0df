/**
 * The alerts (docs/operations.md, "Metrics and alerts"), each fired and resolved by its real cause on a real node: an
 * approval left waiting, the payer's gas drained, a reconcile difference made by a direct chain transfer, the node
 * stopped. Each event is audited, listed on the desk, and received by a webhook the test runs: in Alertmanager's shape,
 * signed, and once, a failed call retried with backoff.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createWalletClient, erc20Abi, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { verifySignature } from '../../server/alerts/webhook';
import type { Chain } from '../../server/chain/chain';
import { queryRows } from '../../server/db/client';
import { startTestChain, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant, treasuryHeaders, withdraw } from './support/testLedger';
import { approve, operatorWithSession } from './support/financeDeskCalls';
import { accounts, envelope, signInBound } from './support/memberSignIn';

const SECRET = 'alert-webhook-secret-of-the-tests-0123456789';

interface Received {
  event: string;
  status: string;
  alertname: string;
  signed: boolean;
}

/** A webhook receiver: answers `answers` in turn (then 200), checks each call's signature, keeps what it got. */
async function startReceiver(now: () => Date) {
  const received: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const payload = JSON.parse(body) as { status: string; alerts: { labels: { alertname: string } }[] };
      received.push({
        event: String(request.headers['x-member-dapp-event']),
        status: payload.status,
        alertname: payload.alerts[0]?.labels.alertname ?? '',
        signed: verifySignature(SECRET, body, request.headers, now()),
      });
      response.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, answers, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describeWithDatabases('alerts', (ctx) => {
  let testChain: TestChain;
  beforeAll(async () => {
    testChain = await startTestChain({ confirmations: 1, persist: true });
  }, 60_000);
  afterAll(async () => {
    await testChain.stop();
  });

  async function setup(options: { payerTokens?: string } = {}) {
    const receiver = await startReceiver(ctx.clock.now);
    const treasury = privateKeyToAccount(generatePrivateKey()).address;
    const chain: Chain = { ...testChain.chain, settings: { ...testChain.chain.settings, treasury } };
    const payerKey = generatePrivateKey();
    const payer = privateKeyToAccount(payerKey);
    await testChain.fund(payer.address, options.payerTokens ?? '100');
    await testChain.fund(treasury, '1000');
    const app = await ctx.app({
      chain,
      autoApproveMax: toMinor('15'),
      approvalQuorumAbove: toMinor('30'),
      payer: { key: payerKey, holder: 'first' },
      topUpWatcher: { startBlock: (await testChain.head()) + 1n },
      reconcile: { holder: 'first' },
      alerts: { webhookUrls: [receiver.url], secret: SECRET, thresholds: { approvalWaitSeconds: 3600 } },
    });
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    expect(envelope(await grant(app, { address: accounts.alice.address, amount: '300', requestId: randomUUID() })).code).toBe(0);
    return { app, receiver, payer, alice, treasury };
  }

  const withdrawn = async (app: FastifyInstance, token: string, amount: string) => {
    const body = envelope<{ id: string; status: string }>(await withdraw(app, token, { amount, requestId: randomUUID() }));
    expect(body.code).toBe(0);
    return body.result?.id ?? '';
  };

  /** The desk's call: GET /api/admin/alerts. */
  async function alertsOnDesk(app: FastifyInstance) {
    const body = envelope<{ firing: { rule: string; description: string; endedAt: string | null }[]; resolved: { rule: string; endedAt: string | null }[] }>(
      await app.inject({ method: 'GET', url: '/api/admin/alerts', headers: treasuryHeaders() }),
    );
    expect(body.code).toBe(0);
    return body.result ?? { firing: [], resolved: [] };
  }
  const firing = async (app: FastifyInstance) => (await alertsOnDesk(app)).firing.map((alert) => alert.rule);

  /** The reconcile round, then the deliveries; what the receiver got since `from`. */
  async function round(app: FastifyInstance, receiver: Awaited<ReturnType<typeof startReceiver>>, from: number) {
    await app.reconcileRound().catch(() => undefined);
    await app.deliverAlerts();
    return receiver.received.slice(from).map((call) => [call.alertname, call.status, call.signed]);
  }

  const audited = async () =>
    queryRows(ctx.db, sql`SELECT action, target, via FROM audit_log WHERE action LIKE 'alert%' ORDER BY id`, z.object({ action: z.string(), target: z.string(), via: z.string() }));

  it('an approval left waiting fires once it waited past its threshold, and resolves with the second approval', async () => {
    const s = await setup();
    const big = await withdrawn(s.app, s.alice, '40');
    const ann = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    expect(envelope(await approve(s.app, ann, big)).code).toBe(0);
    ctx.clock.advance(3599_000);
    expect(await round(s.app, s.receiver, 0)).toEqual([]);
    ctx.clock.advance(1_000);
    expect(await round(s.app, s.receiver, 0)).toEqual([['ApprovalWaiting', 'firing', true]]);
    expect(await firing(s.app)).toEqual(['ApprovalWaiting']);
    // Once: further rounds while it fires send nothing more.
    expect(await round(s.app, s.receiver, 1)).toEqual([]);
    expect(envelope(await approve(s.app, ben, big)).code).toBe(0);
    expect(await round(s.app, s.receiver, 1)).toEqual([['ApprovalWaiting', 'resolved', true]]);
    expect(await firing(s.app)).toEqual([]);
    expect((await alertsOnDesk(s.app)).resolved.map((alert) => [alert.rule, alert.endedAt !== null])).toEqual([['ApprovalWaiting', true]]);
    expect(await audited()).toEqual([
      { action: 'alertFiring', target: 'ApprovalWaiting', via: 'system' },
      { action: 'alertResolved', target: 'ApprovalWaiting', via: 'system' },
    ]);
    expect(new Set(s.receiver.received.map((call) => call.event)).size).toBe(2);
    await s.receiver.close();
  });

  it("the payer's gas drained: PayerWaiting fires, and resolves when gas is back; a refused call is retried with backoff", async () => {
    const s = await setup();
    await withdrawn(s.app, s.alice, '12');
    await testChain.rpc('anvil_setBalance', [s.payer.address, '0x0']);
    s.receiver.answers.push(503);
    expect(await round(s.app, s.receiver, 0)).toEqual([['PayerWaiting', 'firing', true]]);
    // Refused: retried 5 s later, not before, with the same event id.
    expect(await s.app.deliverAlerts()).toEqual({ delivered: 0, failed: 0 });
    ctx.clock.advance(5_000);
    expect(await s.app.deliverAlerts()).toEqual({ delivered: 1, failed: 0 });
    expect(s.receiver.received.map((call) => [call.status, call.signed])).toEqual([['firing', true], ['firing', true]]);
    expect(s.receiver.received[0]?.event).toBe(s.receiver.received[1]?.event);
    await testChain.rpc('anvil_setBalance', [s.payer.address, '0xde0b6b3a7640000']);
    expect(await round(s.app, s.receiver, 2)).toEqual([['PayerWaiting', 'resolved', true]]);
    await s.receiver.close();
  });

  it('a direct chain transfer out of the treasury makes reconcile short: ReconcileNotOk fires, and resolves when the token is back', async () => {
    const s = await setup({ payerTokens: '10' });
    // The members' 300 are backed by the treasury's 1000 and the hot wallet's 10: 900 leave the treasury on chain,
    // behind the ledger's back (its key is the node's to use here). The hot wallet's own key stays unused: a
    // transaction of it the database does not know would halt payouts too (the payer's journal), a cause of its own.
    await testChain.rpc('anvil_impersonateAccount', [s.treasury]);
    await testChain.rpc('anvil_setBalance', [s.treasury, '0xde0b6b3a7640000']);
    const treasuryWallet = createWalletClient({ account: s.treasury, transport: http(testChain.node.url) });
    await treasuryWallet.writeContract({ address: testChain.token, abi: erc20Abi, functionName: 'transfer', args: [accounts.dave.address, parseUnits('900', testChain.decimals)], chain: null });
    await testChain.mine(1);
    expect(await round(s.app, s.receiver, 0)).toEqual([['ReconcileNotOk', 'firing', true]]);
    expect((await alertsOnDesk(s.app)).firing[0]?.description).toMatch(/difference -\d/);
    await testChain.fund(s.treasury, '900');
    expect(await round(s.app, s.receiver, 1)).toEqual([['ReconcileNotOk', 'resolved', true]]);
    await expectBooksBalanced(ctx.db);
    await s.receiver.close();
  });

  it('the node stopped: ChainStale fires though reconcile cannot run, and resolves when the node is back', async () => {
    const s = await setup();
    await testChain.node.stop();
    try {
      expect(await round(s.app, s.receiver, 0)).toEqual([['ChainStale', 'firing', true]]);
      expect((await alertsOnDesk(s.app)).firing.map((alert) => [alert.rule, alert.description])).toEqual([['ChainStale', 'the node did not answer']]);
    } finally {
      await testChain.restart();
    }
    expect(await round(s.app, s.receiver, 1)).toEqual([['ChainStale', 'resolved', true]]);
    await s.receiver.close();
  });
});
