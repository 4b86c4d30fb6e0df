/**
 * Money in against the chain as it really is, on one real node for the whole file and
 * every database target: a reorganisation past the depth that mines a top-up at another index in its block, one that
 * removes it for good, a backend that answers no logs or no blocks while it lags (the JSON-RPC relay), the operator's
 * re-read of a range, and the topUp call's edges. Each test has a treasury of its own and reads from its own first
 * block, so the shared chain's earlier transfers are none of its business. After each: the books balance and nothing
 * is credited twice.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { encodeFunctionData, erc20Abi, getContractAddress, parseUnits, type Address, type Hex, type PrivateKeyAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiCode } from '../../api-schema/codes';
import type { Chain } from '../../server/chain/chain';
import { toLedgerUnits } from '../../server/chain/chainReads';
import { reorgedAwayTopUps } from '../../server/chain/topUps';
import { createTopUpWatcher, keepHeadAsFirstCursor } from '../../server/chain/topUpWatcher';
import { queryRows } from '../../server/db/client';
import { systemAccountId } from '../../server/ledger/accounts';
import { expectRefused } from './support/assertions';
import { startTestChain, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, systemBalance, treasuryHeaders } from './support/testLedger';
import { relayedChain, RelayError, startRpcRelay, type RpcRelay } from './support/rpcRelay';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

const CONFIRMATIONS = 3;

describeWithDatabases('top-ups against lagging nodes and deep reorganisations', (ctx) => {
  let testChain: TestChain;
  let relay: RpcRelay;
  beforeAll(async () => {
    testChain = await startTestChain({ confirmations: CONFIRMATIONS });
    relay = await startRpcRelay(() => testChain.node.url);
  }, 60_000);
  afterAll(async () => {
    await relay.stop();
    await testChain.stop();
  });
  afterEach(() => relay.reset());

  /**
   * A treasury of this test's own, read from the next block on; `relayed`: the server reads through the relay;
   * `retries: false`: its calls fail at once when the relay is down (else about 2 s of retries each).
   */
  async function setup(options: { relayed?: boolean; retries?: boolean } = {}) {
    const treasury = privateKeyToAccount(generatePrivateKey()).address;
    const direct: Chain = { ...testChain.chain, settings: { ...testChain.chain.settings, treasury } };
    const chain = options.relayed ? { ...relayedChain(direct, [relay], { retries: options.retries }), settings: { ...direct.settings, rpcUrls: [relay.url] } } : direct;
    const startBlock = (await testChain.head()) + 1n;
    const app = await ctx.app({ chain, topUpWatcher: { startBlock } });
    const watcher = createTopUpWatcher({ db: ctx.db, chain, now: ctx.clock.now, startBlock });
    const send = (account: PrivateKeyAccount, amount: string) => testChain.transfer(account, amount, { to: treasury });
    return { chain, treasury, startBlock, app, watcher, send };
  }

  const credit = async (app: FastifyInstance, token: string) =>
    envelope<{ creditBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).result?.creditBalance;

  const topUp = (app: FastifyInstance, token: string, txHash: string) => app.inject({ method: 'POST', url: '/api/member/topUp', headers: authHeaders(token), payload: { txHash } });

  async function member(app: FastifyInstance, account: PrivateKeyAccount, tokens = '100') {
    const token = await signInBound(app, account, ctx.clock.now());
    await testChain.fund(account.address, tokens);
    return token;
  }

  const topUpRows = () =>
    queryRows(ctx.db, sql`SELECT tx_hash AS "txHash", log_position AS "logPosition", amount::text AS amount FROM top_ups ORDER BY tx_hash, log_position`, z.object({ txHash: z.string(), logPosition: z.number(), amount: z.string() }));

  /** Reconcile as the operator reads it. */
  const reconcileOf = async (app: FastifyInstance) =>
    envelope<{ ok: boolean; difference: string; reorgedCredits: unknown[] }>(await app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: treasuryHeaders() })).result;

  /**
   * The books balance, each log is credited once, the credits are the treasury's tokens on chain now, and reconcile
   * is ok (the treasury backs what is owed; nothing reorganised away, lost or stuck).
   */
  async function expectCreditedIsOnChain(app: FastifyInstance, treasury: Address) {
    const reconciled = await reconcileOf(app);
    expect(reconciled).toMatchObject({ ok: true, lostPayments: [], reorgedCredits: [], stuckPayments: [] });
    expect(reconciled?.difference).not.toMatch(/^-/);
    await expectBooksBalanced(ctx.db);
    const onChain = await testChain.chain.client.readContract({ address: testChain.token, abi: erc20Abi, functionName: 'balanceOf', args: [treasury] });
    const rows = await topUpRows();
    expect(new Set(rows.map((row) => `${row.txHash}/${row.logPosition}`)).size).toBe(rows.length);
    const total = rows.reduce((sum, row) => sum + BigInt(row.amount), 0n);
    expect(total).toBe(toLedgerUnits(onChain, testChain.decimals));
    expect(await systemBalance(ctx.db, systemAccountId('CREDIT', 'chain'))).toBe((-total).toString());
  }

  /** A token transfer signed by `account`, not sent (for anvil_reorg to mine), paying a high tip so it goes first. */
  async function signedTransfer(account: PrivateKeyAccount, to: Address, amount: string): Promise<Hex> {
    const nonce = await testChain.chain.client.getTransactionCount({ address: account.address, blockTag: 'pending' });
    return account.signTransaction({
      chainId: testChain.chain.settings.chainId,
      type: 'eip1559',
      nonce,
      to: testChain.token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, parseUnits(amount, testChain.decimals)] }),
      gas: 100_000n,
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 50_000_000_000n,
    });
  }

  it('credits a top-up once when a reorganisation past the depth mines it again at another index in its block', async () => {
    const { app, watcher, send, treasury } = await setup();
    const alice = await member(app, accounts.alice);
    await testChain.fund(accounts.bob.address, '100');
    const hash = await send(accounts.alice, '9');
    const raw = await testChain.rpc('eth_getRawTransactionByHash', [hash]);
    const before = await testChain.chain.client.getTransactionReceipt({ hash });
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    // The top-up's block and those on it are replaced; the new first block has bob's transfer first, then alice's.
    const other = await signedTransfer(accounts.bob, accounts.dave.address, '1');
    await testChain.rpc('anvil_reorg', [CONFIRMATIONS + 1, [[other, 0], [raw, 0]]]);
    await testChain.mine(CONFIRMATIONS);
    const after = await testChain.chain.client.getTransactionReceipt({ hash });
    expect(after.blockHash).not.toBe(before.blockHash);
    expect(after.logs[0]?.logIndex).toBe((before.logs[0]?.logIndex ?? 0) + 1);
    await watcher.runOnce();
    await watcher.runOnce();
    expect(await topUpRows()).toHaveLength(1);
    expect(await credit(app, alice)).toBe('9');
    await expectCreditedIsOnChain(app, treasury);
    expect(await reorgedAwayTopUps(ctx.db, testChain.chain.settings.chainId)).toEqual([]);
  });

  it('keys a top-up by its place among all its transaction\'s logs, another contract\'s log before it', async () => {
    const { app, watcher, treasury } = await setup();
    const other = await testChain.deployOther();
    const sender = privateKeyToAccount(generatePrivateKey());
    await testChain.fund(sender.address, '0');
    // A contract whose creation pays 1 of the other token to dave, then 2 of the app's token to the treasury.
    const contract = getContractAddress({ from: sender.address, nonce: 0n });
    await testChain.fund(contract, '5');
    await testChain.fund(contract, '5', other);
    const word = (value: bigint) => value.toString(16).padStart(64, '0');
    const pay = (token: Address, to: Address, amount: bigint) =>
      `63a9059cbb60e01b600052` + `73${to.slice(2)}600452` + `7f${word(amount)}602452` + `6000600060446000600073${token.slice(2)}5af150`;
    const units = 10n ** BigInt(testChain.decimals);
    const raw = await sender.signTransaction({
      chainId: testChain.chain.settings.chainId,
      type: 'eip1559',
      nonce: 0,
      data: `0x${pay(other, accounts.dave.address, units)}${pay(testChain.token, treasury, 2n * units)}00`,
      gas: 300_000n,
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    });
    const hash = (await testChain.rpc('eth_sendRawTransaction', [raw])) as Hex;
    const receipt = await testChain.chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.logs.map((log) => log.address.toLowerCase())).toEqual([other.toLowerCase(), testChain.token.toLowerCase()]);
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ held: 1 });
    expect((await topUpRows()).map((row) => [row.txHash, row.logPosition])).toEqual([[hash, 1]]);
    await expectCreditedIsOnChain(app, treasury);
  });

  it('never credits again a top-up credited before migration 0018 (keyed by its block log index), even mined at another index', async () => {
    const { app, watcher, send, treasury, startBlock } = await setup();
    const alice = await member(app, accounts.alice);
    await testChain.fund(accounts.bob.address, '100');
    const hash = await send(accounts.alice, '5');
    const raw = await testChain.rpc('eth_getRawTransactionByHash', [hash]);
    const receipt = await testChain.chain.client.getTransactionReceipt({ hash });
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    // The row as migration 0018 leaves a row of before it: its block's log index kept as -1 - index, no block hash;
    // the engine's stored outcome is long expired.
    await ctx.db.execute(sql`UPDATE top_ups SET log_position = ${-1 - (receipt.logs[0]?.logIndex ?? 0)}::int, block_hash = NULL`);
    await ctx.db.execute(sql`DELETE FROM idempotency_keys WHERE scope LIKE 'chain:%'`);
    const head = (await testChain.head()) - BigInt(CONFIRMATIONS);
    expect(await watcher.reread(startBlock, head)).toMatchObject({ found: 1, credited: 0 });
    const other = await signedTransfer(accounts.bob, accounts.dave.address, '1');
    await testChain.rpc('anvil_reorg', [CONFIRMATIONS + 1, [[other, 0], [raw, 0]]]);
    await testChain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    await watcher.runOnce();
    expect(await topUpRows()).toHaveLength(1);
    expect(await credit(app, alice)).toBe('5');
    await expectCreditedIsOnChain(app, treasury);
  });

  it('flags a credit whose transaction a deep reorganisation removed, debits nothing, and clears it when mined again', async () => {
    const { app, watcher, send, treasury } = await setup();
    const alice = await member(app, accounts.alice);
    const hash = await send(accounts.alice, '7');
    const raw = await testChain.rpc('eth_getRawTransactionByHash', [hash]);
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    await testChain.rpc('anvil_reorg', [CONFIRMATIONS + 1, []]);
    await testChain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    expect(await reorgedAwayTopUps(ctx.db, testChain.chain.settings.chainId)).toEqual([
      { txHash: hash, address: accounts.alice.address, amount: 7_000_000n, credited: true },
    ]);
    // The operator sees it: listed, the treasury 7 short of what is owed, not ok.
    expect(await reconcileOf(app)).toMatchObject({ ok: false, difference: '-7', reorgedCredits: [{ txHash: hash, address: accounts.alice.address, amount: '7', credited: true }] });
    expect(await credit(app, alice)).toBe('7');
    await expectBooksBalanced(ctx.db);
    expect(await testChain.resend(raw)).toBe(hash);
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0 });
    expect(await reorgedAwayTopUps(ctx.db, testChain.chain.settings.chainId)).toEqual([]);
    expect(await credit(app, alice)).toBe('7');
    await expectCreditedIsOnChain(app, treasury);
  });

  it('never moves past a top-up while a lagging backend answers its logs with none; credits it once it answers', async () => {
    const { app, watcher, send, treasury } = await setup({ relayed: true });
    const alice = await member(app, accounts.alice);
    // A load balancer whose eth_getLogs backend lags while blocks come from an honest one: a range past its head is
    // "no logs", a block it does not have is an error (go-ethereum#24078).
    let lagging = true;
    relay.on('eth_getLogs', (params, forward) => {
      if (!lagging) return forward();
      if ((params[0] as { blockHash?: string }).blockHash) throw new RelayError(-32000, 'unknown block');
      return [];
    });
    await send(accounts.alice, '4');
    await testChain.mine(CONFIRMATIONS);
    await watcher.runOnce().catch(() => undefined);
    await testChain.mine(2);
    await watcher.runOnce().catch(() => undefined);
    lagging = false;
    await watcher.runOnce();
    expect(await credit(app, alice)).toBe('4');
    await expectCreditedIsOnChain(app, treasury);
  });

  it('credits a top-up from its block\'s receipts when a backend with a current head answers its logs with none', async () => {
    const { app, watcher, send, treasury } = await setup({ relayed: true });
    const alice = await member(app, accounts.alice);
    relay.unindexed(50);
    await send(accounts.alice, '3');
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    expect(await credit(app, alice)).toBe('3');
    await expectCreditedIsOnChain(app, treasury);
  });

  it('never moves past a top-up while that backend answers no logs and no receipts; credits it once when it answers truly', async () => {
    const { app, watcher, send, treasury } = await setup({ relayed: true });
    const alice = await member(app, accounts.alice);
    relay.unindexed(50, { receipts: 'none' });
    await send(accounts.alice, '6');
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0, unsettled: true });
    await testChain.mine(2);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0, unsettled: true });
    relay.unindexed(0);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    expect(await watcher.runOnce()).toMatchObject({ credited: 0 });
    expect(await credit(app, alice)).toBe('6');
    await expectCreditedIsOnChain(app, treasury);
  });

  it('lists in reconcile a top-up a lying backend made the watcher move past, not a silent surplus, until a re-read credits it', async () => {
    const { app, watcher, send, treasury, startBlock } = await setup({ relayed: true });
    const alice = await member(app, accounts.alice);
    await watcher.runOnce();
    // A backend that answers a block's logs and its receipts without the top-up (by hash); ranges it answers truly.
    let lying = true;
    relay.on('eth_getLogs', (params, forward) => (lying && (params[0] as { blockHash?: string }).blockHash ? [] : forward()));
    relay.on('eth_getBlockReceipts', async (_params, forward) => (lying ? ((await forward()) as { logs: unknown[] }[]).map((receipt) => ({ ...receipt, logs: [] })) : forward()));
    const hash = await send(accounts.alice, '8');
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0, unsettled: false });
    const missed = await app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: treasuryHeaders() });
    expect(envelope(missed).result).toMatchObject({ ok: false, missedTopUps: [{ txHash: hash, from: accounts.alice.address, amount: '8' }] });
    lying = false;
    const toBlock = (await testChain.head()) - BigInt(CONFIRMATIONS);
    const reread = await app.inject({ method: 'POST', url: '/api/admin/topUps/reread', headers: treasuryHeaders(), payload: { fromBlock: startBlock.toString(), toBlock: toBlock.toString() } });
    expect(envelope(reread)).toMatchObject({ code: 0, result: { credited: 1 } });
    expect(await credit(app, alice)).toBe('8');
    expect(envelope(await app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: treasuryHeaders() })).result).toMatchObject({ ok: true, missedTopUps: [] });
    await expectCreditedIsOnChain(app, treasury);
  });

  it('keeps its cursor when the node answers "not found" for the kept blocks: a restart reads on from it', async () => {
    const { chain, app, watcher, send, treasury, startBlock } = await setup({ relayed: true });
    const alice = await member(app, accounts.alice);
    await send(accounts.alice, '2');
    await testChain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    await send(accounts.alice, '3');
    await testChain.mine(CONFIRMATIONS);
    const keptBlocks = () => queryRows(ctx.db, sql`SELECT number::text AS number, hash FROM chain_blocks ORDER BY number`, z.object({ number: z.string(), hash: z.string() }));
    const kept = await keptBlocks();
    // A node 20 blocks behind, its head below the cursor: doubt, not a shorter chain; nothing kept is dropped.
    relay.lag(20, { logs: 'empty' });
    expect(await watcher.runOnce()).toMatchObject({ unsettled: true, credited: 0 });
    expect(await keptBlocks()).toEqual(kept);
    relay.lag(0);
    // A backend without those blocks (its head is honest): absence is doubt, never "the chain is shorter".
    relay.on('eth_getBlockByNumber', (params, forward) => (typeof params[0] === 'string' && params[0].startsWith('0x') ? null : forward()));
    expect(await watcher.runOnce()).toMatchObject({ unsettled: true, credited: 0 });
    expect(await keptBlocks()).toEqual(kept);
    relay.on('eth_getBlockByNumber', null);
    // A restart: the cursor kept is where it reads on from, not the head now.
    await keepHeadAsFirstCursor(ctx.db, chain);
    const restarted = createTopUpWatcher({ db: ctx.db, chain, now: ctx.clock.now, startBlock });
    expect(await restarted.runOnce()).toMatchObject({ credited: 1, rewound: 0 });
    expect(await credit(app, alice)).toBe('5');
    await expectCreditedIsOnChain(app, treasury);
  });

  it('re-reads a block range on the operator\'s call, crediting only what was missed, once', async () => {
    const { chain, app, send, treasury, startBlock } = await setup();
    const alice = await member(app, accounts.alice);
    await send(accounts.alice, '6');
    // The cursor is kept after the top-up (as a first start after it would): the watcher never reads it.
    await keepHeadAsFirstCursor(ctx.db, chain);
    await send(accounts.alice, '1');
    await testChain.mine(CONFIRMATIONS);
    const watcher = createTopUpWatcher({ db: ctx.db, chain, now: ctx.clock.now, startBlock });
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    expect(await credit(app, alice)).toBe('1');
    const toBlock = (await testChain.head()) - BigInt(CONFIRMATIONS);
    const reread = (body: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/admin/topUps/reread', headers: treasuryHeaders(), payload: body });
    expect(envelope(await reread({ fromBlock: startBlock.toString(), toBlock: toBlock.toString() }))).toMatchObject({ code: 0, result: { found: 2, credited: 1, held: 0 } });
    expect(envelope(await reread({ fromBlock: startBlock.toString(), toBlock: toBlock.toString() }))).toMatchObject({ code: 0, result: { found: 2, credited: 0, held: 0 } });
    expect(await credit(app, alice)).toBe('7');
    await expectCreditedIsOnChain(app, treasury);
    // One audit row, written with the credit it records; the second call credited nothing and wrote none.
    const rows = await queryRows(ctx.db, sql`SELECT after FROM audit_log WHERE action = 'opsTopUpsReread'`, z.object({ after: z.unknown() }));
    expect(rows.map((row) => row.after)).toEqual([{ credited: 1, held: 0 }]);
    // Bounded, ordered, and deep enough only.
    expectRefused(await reread({ fromBlock: '0', toBlock: '10000' }), ApiCode.invalidParameters);
    expectRefused(await reread({ fromBlock: toBlock.toString(), toBlock: startBlock.toString() }), ApiCode.invalidParameters);
    expectRefused(await reread({ fromBlock: startBlock.toString(), toBlock: (toBlock + 1n).toString() }), ApiCode.invalidParameters);
  });

  it('topUp: a transfer of 0 or of dust is invalid, a hash in upper case is the same transaction', async () => {
    const { app, send, treasury } = await setup();
    const alice = await member(app, accounts.alice);
    const zero = await send(accounts.alice, '0');
    const hash = await send(accounts.alice, '2.5');
    await testChain.mine(CONFIRMATIONS);
    expect(envelope(await topUp(app, alice, zero))).toMatchObject({ code: 0, result: { status: 'invalid' } });
    const upper = `0x${hash.slice(2).toUpperCase()}`;
    expect(envelope(await topUp(app, alice, upper))).toMatchObject({ code: 0, result: { txHash: hash, status: 'credited', amount: '2.5' } });
    expect(envelope(await topUp(app, alice, upper))).toMatchObject({ code: 0, result: { status: 'credited' } });
    expect(await credit(app, alice)).toBe('2.5');
    await expectCreditedIsOnChain(app, treasury);
  });

  it('topUp: calls at depth share one watcher round; a node that is down answers 3007, never a 5xx', async () => {
    const { app, watcher, send, treasury } = await setup({ relayed: true, retries: false });
    const alice = await member(app, accounts.alice);
    const hash = await send(accounts.alice, '3');
    await testChain.mine(CONFIRMATIONS);
    // Rounds asked for while one waits to start share it: eight asks, at most two rounds (one head read each).
    relay.reset();
    await Promise.all(Array.from({ length: 8 }, () => watcher.runOnce()));
    expect(relay.count('eth_blockNumber')).toBeLessThanOrEqual(2);
    const answers = await Promise.all(Array.from({ length: 8 }, () => topUp(app, alice, hash)));
    for (const answer of answers) expect(envelope(answer)).toMatchObject({ code: 0, result: { status: 'credited', amount: '3' } });
    relay.down(true);
    const down = await topUp(app, alice, await send(accounts.alice, '1'));
    expect(down.statusCode).toBeLessThan(500);
    expect(envelope(down).code).toBe(ApiCode.chainUnavailable);
    relay.down(false);
    expect(await credit(app, alice)).toBe('3');
    await testChain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    expect(await credit(app, alice)).toBe('4');
    await expectCreditedIsOnChain(app, treasury);
  });

  it('topUp: rate limited per member', async () => {
    const { send } = await setup();
    const app = await ctx.app({ chain: { ...testChain.chain }, rateLimits: { topUp: { max: 2, timeWindow: 60_000 } } });
    const alice = await member(app, accounts.alice);
    const bob = await member(app, accounts.bob);
    const hash = await send(accounts.alice, '1');
    expect(envelope(await topUp(app, alice, hash)).code).toBe(0);
    expect(envelope(await topUp(app, alice, hash)).code).toBe(0);
    expectRefused(await topUp(app, alice, hash), ApiCode.tooManyRequests);
    // Another member on the same address (the tests' client) is not limited by alice's calls.
    expect(envelope(await topUp(app, bob, hash)).code).toBe(0);
  });
});
