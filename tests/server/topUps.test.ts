/**
 * Money in (docs/API.md, "Credit on chain"), on a real node started by each test (anvil) and every database target:
 * members send real signed token transfers to the treasury, the watcher credits each once at its depth, and the
 * faults are made with the node's own methods (anvil_reorg, anvil_dropTransaction, automine off, the node stopped).
 * After each, the books balance and the ledger's credited total is the confirmed top-ups on chain.
 */
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { erc20Abi, type Hex, type PrivateKeyAccount } from 'viem';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { chainClient, type Chain } from '../../server/chain/chain';
import { toLedgerUnits } from '../../server/chain/chainReads';
import { creditTopUps } from '../../server/chain/topUps';
import { createTopUpWatcher, keepHeadAsFirstCursor, type TopUpWatcher } from '../../server/chain/topUpWatcher';
import { queryRows } from '../../server/db/client';
import { systemAccountId } from '../../server/ledger/accounts';
import { expectRefused } from './support/assertions';
import { startTestChain, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, systemBalance, treasuryHeaders } from './support/testLedger';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

const CONFIRMATIONS = 3;
const HELD = systemAccountId('CREDIT', 'held_top_ups');

describeWithDatabases('top-ups from the chain', (ctx) => {
  const started: TestChain[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((testChain) => testChain.stop()));
  });

  /** `retries: false`: the app and the watcher fail at once when the node is down (chainClient's option). */
  async function setup(options: { decimals?: number; persist?: boolean; retries?: boolean } = {}) {
    const testChain = await startTestChain({ decimals: options.decimals, confirmations: CONFIRMATIONS, persist: options.persist });
    started.push(testChain);
    const chain = options.retries === false ? { ...testChain.chain, client: chainClient(testChain.chain.settings.rpcUrls, { retries: false }) } : testChain.chain;
    const app = await ctx.app({ chain, topUpWatcher: { startBlock: testChain.deployBlock } });
    const watcher = watcherOf(testChain, chain);
    return { testChain, app, watcher };
  }

  /** A watcher of its own on the same database and chain (the app's runs through topUp). */
  const watcherOf = (testChain: TestChain, chain: Chain = testChain.chain): TopUpWatcher => createTopUpWatcher({ db: ctx.db, chain, now: ctx.clock.now, startBlock: testChain.deployBlock });

  const credit = async (app: FastifyInstance, token: string) =>
    envelope<{ creditBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).result?.creditBalance;

  const records = async (app: FastifyInstance, token: string) =>
    envelope<{ list: { type: string; amount: string; balanceAfter: string; status: string; txHash?: string }[] }>(
      await app.inject({ method: 'GET', url: '/api/member/creditRecord', headers: authHeaders(token) }),
    ).result?.list ?? [];

  const topUp = async (app: FastifyInstance, token: string, txHash: string) =>
    envelope<{ status: string; confirmations: number; required: number; amount?: string }>(
      await app.inject({ method: 'POST', url: '/api/member/topUp', headers: authHeaders(token), payload: { txHash } }),
    );

  /** Reconcile is ok: the treasury backs what the ledger owes, and nothing is reorganised away, lost or stuck. */
  async function expectReconciled(app: FastifyInstance) {
    const reconciled = envelope<{ ok: boolean; difference: string }>(await app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: treasuryHeaders() })).result;
    expect(reconciled).toMatchObject({ ok: true, lostPayments: [], reorgedCredits: [], stuckPayments: [] });
    expect(reconciled?.difference).not.toMatch(/^-/);
  }

  /**
   * The books balance, what the ledger credited (to members and held) is exactly the treasury's token balance on
   * chain now, in ledger units, from deep enough blocks: every confirmed top-up once, nothing else; reconcile is ok.
   */
  async function expectCreditedIsOnChain(app: FastifyInstance, testChain: TestChain) {
    await expectReconciled(app);
    await expectBooksBalanced(ctx.db);
    const onChain = await testChain.chain.client.readContract({ address: testChain.token, abi: erc20Abi, functionName: 'balanceOf', args: [testChain.treasury] });
    const [row] = await queryRows(ctx.db, sql`SELECT coalesce(sum(amount), 0)::text AS total FROM top_ups`, z.object({ total: z.string() }));
    expect(BigInt(row?.total ?? '0')).toBe(toLedgerUnits(onChain, testChain.decimals));
    // The chain account is the negative of everything credited.
    expect(await systemBalance(ctx.db, systemAccountId('CREDIT', 'chain'))).toBe((-BigInt(row?.total ?? '0')).toString());
  }

  async function member(app: FastifyInstance, testChain: TestChain, account: PrivateKeyAccount, tokens: string) {
    const token = await signInBound(app, account, ctx.clock.now());
    await testChain.fund(account.address, tokens);
    return token;
  }

  it('credits a top-up once, only at its depth: the record has the hash, topUp follows it from pending to credited', async () => {
    const { testChain, app, watcher } = await setup();
    const alice = await member(app, testChain, accounts.alice, '100');
    const hash = await testChain.transfer(accounts.alice, '25.5');
    for (let depth = 0; depth < CONFIRMATIONS; depth++) {
      expect(await watcher.runOnce()).toMatchObject({ credited: 0 });
      expect(await topUp(app, alice, hash)).toMatchObject({ code: 0, result: { status: 'confirming', confirmations: depth, required: CONFIRMATIONS, amount: '25.5' } });
      await testChain.mine(1);
    }
    expect(await credit(app, alice)).toBe('0');
    // Deep enough: topUp runs the round itself.
    expect(await topUp(app, alice, hash)).toMatchObject({ code: 0, result: { status: 'credited', confirmations: CONFIRMATIONS, amount: '25.5' } });
    expect(await credit(app, alice)).toBe('25.5');
    expect((await watcher.runOnce()).credited).toBe(0);
    expect(await topUp(app, alice, hash)).toMatchObject({ result: { status: 'credited' } });
    expect(await credit(app, alice)).toBe('25.5');
    expect(await records(app, alice)).toEqual([expect.objectContaining({ type: 'topUp', amount: '25.5', balanceAfter: '25.5', status: 'done', txHash: hash })]);
    await expectCreditedIsOnChain(app, testChain);
  });

  it('credits several top-ups of several members in one block range, each once; another member sees them as invalid', async () => {
    const { testChain, app, watcher } = await setup();
    const alice = await member(app, testChain, accounts.alice, '100');
    const bob = await member(app, testChain, accounts.bob, '100');
    const hashes = [
      await testChain.transfer(accounts.alice, '1.5'),
      await testChain.transfer(accounts.bob, '2.25'),
      await testChain.transfer(accounts.alice, '3'),
      await testChain.transfer(accounts.bob, '0.000001'),
    ];
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 4, held: 0 });
    expect(await watcher.runOnce()).toMatchObject({ credited: 0 });
    expect(await credit(app, alice)).toBe('4.5');
    expect(await credit(app, bob)).toBe('2.250001');
    expect(await topUp(app, bob, hashes[0] ?? '')).toMatchObject({ code: 0, result: { status: 'invalid' } });
    await expectCreditedIsOnChain(app, testChain);
  });

  it('rounds an 18-decimal token down to 6 decimals and credits nothing for less than a millionth', async () => {
    const { testChain, app, watcher } = await setup({ decimals: 18 });
    const alice = await member(app, testChain, accounts.alice, '10');
    await testChain.transfer(accounts.alice, '1.123456789123456789');
    const dust = await testChain.transfer(accounts.alice, '0.000000999999999999');
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    expect(await credit(app, alice)).toBe('1.123456');
    // topUp says so too, at any depth (it was an internal error: an amount of 0 the contract refuses).
    expect(await topUp(app, alice, dust)).toMatchObject({ code: 0, result: { status: 'invalid' } });
    await expectBooksBalanced(ctx.db);
    await expectReconciled(app);
  });

  it('holds a top-up from an address that is no member, and credits it at that address first sign-in', async () => {
    const { testChain, app, watcher } = await setup();
    await testChain.fund(accounts.carol.address, '50');
    await testChain.transfer(accounts.carol, '12');
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0, held: 1 });
    expect(await systemBalance(ctx.db, HELD)).toBe(toMinor('12').toString());
    await expectCreditedIsOnChain(app, testChain);
    const carol = await signInBound(app, accounts.carol, ctx.clock.now());
    expect(await credit(app, carol)).toBe('12');
    expect(await systemBalance(ctx.db, HELD)).toBe('0');
    // Neither the watcher nor a second sign-in releases it again.
    expect((await watcher.runOnce()).released).toBe(0);
    await signInBound(app, accounts.carol, ctx.clock.now());
    expect(await credit(app, carol)).toBe('12');
    expect((await records(app, carol)).map((record) => [record.type, record.amount])).toEqual([['topUp', '12']]);
    await expectCreditedIsOnChain(app, testChain);
  });

  it('credits nothing for a Transfer of another contract to the treasury, a transfer to another address, or a reverted one', async () => {
    const { testChain, app, watcher } = await setup();
    const alice = await member(app, testChain, accounts.alice, '100');
    const other = await testChain.deployOther();
    await testChain.fund(accounts.alice.address, '50', other);
    const fromOther = await testChain.transfer(accounts.alice, '20', { token: other });
    const toElsewhere = await testChain.transfer(accounts.alice, '5', { to: accounts.dave.address });
    // More than alice holds, sent without estimation: mined, reverted, no Transfer log.
    const reverted = await testChain.transfer(accounts.alice, '1000', { gas: 100_000n });
    expect((await testChain.chain.client.getTransactionReceipt({ hash: reverted })).status).toBe('reverted');
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0, held: 0 });
    for (const hash of [fromOther, toElsewhere, reverted]) expect(await topUp(app, alice, hash)).toMatchObject({ code: 0, result: { status: 'invalid' } });
    expect(await credit(app, alice)).toBe('0');
    await expectCreditedIsOnChain(app, testChain);
  });

  it('never credits a top-up whose block a reorganisation dropped before its depth; credits it once when mined again', async () => {
    const { testChain, app, watcher } = await setup();
    const alice = await member(app, testChain, accounts.alice, '100');
    const hash = await testChain.transfer(accounts.alice, '7');
    const raw = await testChain.rpc('eth_getRawTransactionByHash', [hash]);
    await testChain.mine(1);
    // Replace the last two blocks (the top-up's among them) with empty ones: the transaction is gone.
    await testChain.rpc('anvil_reorg', [2, []]);
    await testChain.mine(CONFIRMATIONS + 2);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0 });
    expect(await topUp(app, alice, hash)).toMatchObject({ result: { status: 'pending' } });
    await expectCreditedIsOnChain(app, testChain);
    // The same signed transaction is mined again.
    expect(await testChain.resend(raw)).toBe(hash);
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    expect(await credit(app, alice)).toBe('7');
    await expectCreditedIsOnChain(app, testChain);
  });

  it('follows a reorganisation below its cursor back to the fork, crediting a re-mined top-up once', async () => {
    const { testChain, app, watcher } = await setup();
    const alice = await member(app, testChain, accounts.alice, '100');
    const hash = await testChain.transfer(accounts.alice, '9');
    const raw = await testChain.rpc('eth_getRawTransactionByHash', [hash]);
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    await testChain.mine(2);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0 });
    // A reorganisation deeper than the confirmations re-mines the top-up in the new first block.
    await testChain.rpc('anvil_reorg', [CONFIRMATIONS + 3, [[raw, 0]]]);
    await testChain.mine(CONFIRMATIONS);
    const round = await watcher.runOnce();
    expect(round.rewound).toBeGreaterThan(0);
    expect(round.credited).toBe(0);
    expect(await credit(app, alice)).toBe('9');
    await expectCreditedIsOnChain(app, testChain);
  });

  it('credits nothing for a transaction the node dropped before mining it', async () => {
    const { testChain, app, watcher } = await setup();
    const alice = await member(app, testChain, accounts.alice, '100');
    await testChain.rpc('evm_setAutomine', [false]);
    const hash = await testChain.transfer(accounts.alice, '4', { wait: false });
    expect(await topUp(app, alice, hash)).toMatchObject({ result: { status: 'pending', confirmations: 0 } });
    await testChain.rpc('anvil_dropTransaction', [hash]);
    await testChain.mine(CONFIRMATIONS + 1);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0 });
    expect(await topUp(app, alice, hash)).toMatchObject({ result: { status: 'pending' } });
    expect(await credit(app, alice)).toBe('0');
    await expectCreditedIsOnChain(app, testChain);
  });

  it('keeps answering while the node is down, and resumes crediting from its cursor when the node is back', async () => {
    const { testChain, app, watcher } = await setup({ persist: true, retries: false });
    const alice = await member(app, testChain, accounts.alice, '100');
    await testChain.transfer(accounts.alice, '2');
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    const hash = await testChain.transfer(accounts.alice, '3');
    await testChain.mine(CONFIRMATIONS);
    await testChain.node.stop();
    await expect(watcher.runOnce()).rejects.toThrow();
    expect(await credit(app, alice)).toBe('2');
    expect(envelope(await app.inject({ method: 'GET', url: '/api/dapp/dappParam' })).code).toBe(0);
    // topUp answers 3007 (HTTP 424, never a 5xx) while the node is down; nothing is credited by it.
    const down = await app.inject({ method: 'POST', url: '/api/member/topUp', headers: authHeaders(alice), payload: { txHash: hash } });
    expect([down.statusCode, envelope(down).code]).toEqual([424, ApiCode.chainUnavailable]);
    expect(await credit(app, alice)).toBe('2');
    await expectBooksBalanced(ctx.db);
    // Back, from the state it wrote: the round starts after the block its cursor kept.
    await testChain.restart();
    expect(await watcher.runOnce()).toMatchObject({ credited: 1, rewound: 0 });
    expect(await credit(app, alice)).toBe('5');
    await expectCreditedIsOnChain(app, testChain);
  });

  it('after a crash between crediting and moving the cursor, reads the range again and credits nothing twice', async () => {
    const { testChain, app, watcher } = await setup();
    const alice = await member(app, testChain, accounts.alice, '100');
    const hash = await testChain.transfer(accounts.alice, '6');
    const receipt = await testChain.chain.client.getTransactionReceipt({ hash });
    await testChain.mine(CONFIRMATIONS);
    // What a round credits, without the cursor it would have moved afterwards.
    await creditTopUps(ctx.db, testChain.chain.settings.chainId, [{ txHash: hash, logPosition: 0, from: accounts.alice.address, amount: toMinor('6'), blockNumber: receipt.blockNumber, blockHash: receipt.blockHash }], ctx.clock.now());
    expect(await watcher.runOnce()).toMatchObject({ credited: 0 });
    expect(await credit(app, alice)).toBe('6');
    await expectCreditedIsOnChain(app, testChain);
  });

  it('refuses a malformed hash (1001) and answers 4004 on a server without a chain', async () => {
    const { app } = await setup();
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    expectRefused(await app.inject({ method: 'POST', url: '/api/member/topUp', headers: authHeaders(alice), payload: { txHash: '0x12' } }), ApiCode.invalidParameters, 'txHash');
    const plain = await ctx.app();
    const token = await signInBound(plain, accounts.bob, ctx.clock.now());
    const hash: Hex = `0x${'ab'.repeat(32)}`;
    expectRefused(await plain.inject({ method: 'POST', url: '/api/member/topUp', headers: authHeaders(token), payload: { txHash: hash } }), ApiCode.notFound);
  });

  it('keeps the head of a first start as the cursor: a restart reads on from it, not from a later head', async () => {
    const { testChain, app } = await setup();
    const alice = await member(app, testChain, accounts.alice, '100');
    await testChain.transfer(accounts.alice, '1');
    const first = await keepHeadAsFirstCursor(ctx.db, testChain.chain);
    expect(first).toBe(await testChain.head());
    // Sent after the first start, before any round; the server then restarts, seeing a later head.
    await testChain.transfer(accounts.alice, '2');
    await testChain.mine(CONFIRMATIONS + 3);
    expect(await keepHeadAsFirstCursor(ctx.db, testChain.chain)).toBe(first);
    const watcher = createTopUpWatcher({ db: ctx.db, chain: testChain.chain, now: ctx.clock.now, startBlock: first + 1n });
    expect(await watcher.runOnce()).toMatchObject({ credited: 1, rewound: 0 });
    // The 1 before the first start is not the watcher's; the 2 after it is credited.
    expect(await credit(app, alice)).toBe('2');
    await expectBooksBalanced(ctx.db);
    await expectReconciled(app);
  });

  it('fails a round, and keeps its cursor, when the node answers the head but not a block', async () => {
    const { testChain, app } = await setup();
    const alice = await member(app, testChain, accounts.alice, '100');
    // A node behind a relay that can be told to fail block reads (a node that answers some calls and not others).
    let failBlocks = false;
    const relay = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (failBlocks && body.includes('eth_getBlockByNumber')) {
          response.writeHead(503).end('unavailable');
          return;
        }
        void fetch(testChain.node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (answer) => {
          response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
        });
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const address = relay.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const chain = { ...testChain.chain, client: chainClient([`http://127.0.0.1:${port}`]) };
      const watcher = createTopUpWatcher({ db: ctx.db, chain, now: ctx.clock.now, startBlock: testChain.deployBlock });
      await testChain.transfer(accounts.alice, '4');
      await testChain.mine(CONFIRMATIONS);
      expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
      await testChain.transfer(accounts.alice, '5');
      await testChain.mine(CONFIRMATIONS);
      const keptBlocks = () => queryRows(ctx.db, sql`SELECT number::text AS number, hash FROM chain_blocks ORDER BY number`, z.object({ number: z.string(), hash: z.string() }));
      const before = await keptBlocks();
      expect(before).toHaveLength(1);
      failBlocks = true;
      await expect(watcher.runOnce()).rejects.toThrow();
      failBlocks = false;
      expect(await keptBlocks()).toEqual(before);
      // The cursor stayed: the next round reads on from it, nothing rewound, nothing twice.
      expect(await watcher.runOnce()).toMatchObject({ credited: 1, rewound: 0 });
      expect(await credit(app, alice)).toBe('9');
      await expectCreditedIsOnChain(app, testChain);
    } finally {
      await new Promise((resolve) => relay.close(resolve));
    }
  });
});
