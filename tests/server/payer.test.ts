/**
 * Money out (docs/API.md, "Credit on chain"), on a real node (anvil: one per database target, put back to
 * its first state before each test) and every database target: members withdraw through HTTP, the operator approves
 * or fails, and the payer pays from its hot wallet with real signed transactions. Faults are made with the node's own
 * methods (automine off, anvil_dropTransaction, the next block's base fee raised, anvil_reorg) and with the payer
 * stopped at a step, as a crash stops it. After each test `expectPaidOnce`: what each member received on chain from
 * the hot wallet is exactly the ledger's posted withdrawals, no withdrawal has two mined payments, the books balance
 * and reconcile agrees with the chain.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { encodeFunctionData, erc20Abi, parseAbiItem, parseUnits, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { chainClient } from '../../server/chain/chain';
import { tokenUnitsOf } from '../../server/chain/chainReads';
import { createPayer, type Payer, type PayerOptions, type PayerStep } from '../../server/chain/payer';
import { lostPayments } from '../../server/chain/paymentWatch';
import { queryRows } from '../../server/db/client';
import { expectRefused } from './support/assertions';
import { sharedTestChain, TEST_NODE_CHAIN_ID, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { decide, expectBooksBalanced, grant, treasuryHeaders, withdraw } from './support/testLedger';
import { operatorWithSession, resumePayouts } from './support/financeDeskCalls';
import { relayedChain, RelayError, startRpcRelay, type RpcRelay } from './support/rpcRelay';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

const CONFIRMATIONS = 3;
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** A step the payer stops at as a crash stops it: the round throws there, and what it did before is what is stored. */
class Crash extends Error {}

describeWithDatabases('withdrawals paid on chain', (ctx) => {
  // One node for the suite, each test from the state it had after the token's deployment (evm_snapshot/evm_revert).
  const shared = sharedTestChain({ confirmations: CONFIRMATIONS });
  const relays: RpcRelay[] = [];
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  });
  afterAll(() => shared.stop());

  /** A relay in front of this test's node, stopped after the test. */
  async function relayOf(s: Setup): Promise<RpcRelay> {
    const relay = await startRpcRelay(s.testChain.node.url);
    relays.push(relay);
    return relay;
  }

  interface Setup {
    testChain: TestChain;
    app: FastifyInstance;
    /** Whether the node mines each transaction at once (setup's `automine`). */
    automine: boolean;
    payerKey: Hex;
    payerAddress: Address;
    /** A payer of the hot wallet on this database (the app's name for the lease unless `holder`). */
    payer(options?: Partial<PayerOptions>): Payer;
  }

  async function setup(options: { autoApproveMax?: string; payerTokens?: string; automine?: boolean } = {}): Promise<Setup> {
    const testChain = await shared.next();
    const payerKey = generatePrivateKey();
    const payerAddress = privateKeyToAccount(payerKey).address;
    await testChain.fund(payerAddress, options.payerTokens ?? '1000');
    if (options.automine === false) await testChain.rpc('evm_setAutomine', [false]);
    const app = await ctx.app({
      chain: testChain.chain,
      autoApproveMax: toMinor(options.autoApproveMax ?? '100'),
      payer: { key: payerKey, holder: 'app' },
    });
    const payer = (extra: Partial<PayerOptions> = {}) =>
      createPayer({ db: ctx.db, chain: testChain.chain, key: payerKey, holder: 'app', now: ctx.clock.now, stuckAfterMs: 60_000, ...extra });
    return { testChain, app, automine: options.automine ?? true, payerKey, payerAddress, payer };
  }

  /** A member granted `credit`, backed by as many tokens sent to the treasury (reconcile is then ok). */
  async function member(s: Setup, account: (typeof accounts)['alice'], credit: string): Promise<string> {
    const token = await signInBound(s.app, account, ctx.clock.now());
    expect(envelope(await grant(s.app, { address: account.address, amount: credit, requestId: randomUUID() })).code).toBe(0);
    // Mined at once even where the test turned automine off (nothing of the payer's is in the pool yet).
    if (!s.automine) await s.testChain.rpc('evm_setAutomine', [true]);
    await s.testChain.fund(s.testChain.treasury, credit);
    if (!s.automine) await s.testChain.rpc('evm_setAutomine', [false]);
    return token;
  }

  async function withdrawn(app: FastifyInstance, token: string, amount: string): Promise<{ id: string; status: string }> {
    const body = envelope<{ id: string; status: string }>(await withdraw(app, token, { amount, requestId: randomUUID() }));
    expect(body.code).toBe(0);
    return body.result ?? { id: '', status: '' };
  }

  const records = async (app: FastifyInstance, token: string) =>
    envelope<{ list: { type: string; amount: string; status: string; txHash?: string; reason?: string }[] }>(
      await app.inject({ method: 'GET', url: '/api/member/creditRecord', headers: authHeaders(token) }),
    ).result?.list ?? [];

  const credit = async (app: FastifyInstance, token: string) =>
    envelope<{ creditBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).result?.creditBalance;

  interface Reconciled {
    ok: boolean;
    chain: { treasury: string; payer: string | null };
    ledger: { members: string; payable: string };
    difference: string;
    pendingPayments: string;
    payer: { approved: string; waiting: string | null; lost: string };
    lostPayments: { withdrawalId: string; address: string; amount: string; hash: string; reason: string }[];
    reorgedCredits: unknown[];
    stuckPayments: unknown[];
    journal: { chainNonce: string; knownNonce: string; halted: boolean; problem: string | null } | null;
    unknownPayments: { hash: string; kind: string; amount: string; settlement: string | null }[];
  }

  /** The open payout pause's id as reconcile shows it, with the causes expected. */
  const openPauseId = async (app: FastifyInstance, causes: string[]) => {
    const pause = envelope<{ pause: { id: string; causes: { cause: string }[] } | null }>(await app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: treasuryHeaders() })).result?.pause;
    expect(pause?.causes.map((doubt) => doubt.cause)).toEqual(causes);
    return pause?.id ?? '';
  };

  const reconcileOf = async (app: FastifyInstance) => envelope<Reconciled>(await app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: treasuryHeaders() })).result;

  /** Reconcile as it is when a test leaves one payment lost: ok false, that payment listed, nothing else. */
  const expectLostInReconcile = async (s: Setup, lost: { id: string; hash: string | undefined; reason: string }) =>
    expect(await reconcileOf(s.app)).toMatchObject({
      ok: false,
      payer: { lost: '19' },
      lostPayments: [{ withdrawalId: lost.id, address: accounts.alice.address, amount: '19', hash: lost.hash, reason: lost.reason }],
      reorgedCredits: [],
      stuckPayments: [],
    });

  const stageOf = async (id: string) => {
    const [row] = await queryRows(ctx.db, sql`SELECT stage FROM ledger_pending WHERE id = ${id}::bigint`, z.object({ stage: z.string() }));
    return row?.stage;
  };

  /** Rounds (mining a block after each) until nothing is sent and unsettled, as the timer would. */
  async function settle(s: Setup, payer: Payer = s.payer()): Promise<void> {
    for (let attempt = 0; attempt < 30; attempt++) {
      await payer.round();
      const [open] = await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM ledger_pending WHERE stage IN ('sent', 'approved')`, z.object({ n: z.number() }));
      if (open?.n === 0) return;
      await s.testChain.mine(1);
    }
    throw new Error('payments did not settle in 30 rounds');
  }

  /**
   * Paid at most once: what each member received from the hot wallet on chain is their posted withdrawals' net
   * amounts, no withdrawal has two mined payments, the books balance, and reconcile shows the hot wallet's balance
   * and is ok: the tokens back what the ledger owes, nothing lost, reorganised away or stuck.
   */
  async function expectPaidOnce(s: Setup, fundedTokens = '1000'): Promise<void> {
    await expectBooksBalanced(ctx.db);
    const logs = await s.testChain.chain.client.getLogs({ address: s.testChain.token, event: transferEvent, args: { from: s.payerAddress }, fromBlock: 0n, toBlock: 'latest' });
    const received = new Map<string, bigint>();
    for (const log of logs) received.set(log.args.to?.toLowerCase() ?? '', (received.get(log.args.to?.toLowerCase() ?? '') ?? 0n) + (log.args.value ?? 0n));
    const posted = await queryRows(
      ctx.db,
      sql`SELECT lower(m.address) AS address, sum(w.amount - w.fee)::text AS net FROM withdrawals w JOIN members m ON m.id = w.member_id
          JOIN ledger_pending d ON d.id = w.id WHERE d.stage = 'posted' GROUP BY 1`,
      z.object({ address: z.string(), net: z.string() }),
    );
    const expected = new Map(posted.map((row) => [row.address, tokenUnitsOf(BigInt(row.net), s.testChain.decimals)]));
    expect(Object.fromEntries([...received].map(([address, value]) => [address, value.toString()]))).toEqual(
      Object.fromEntries([...expected].map(([address, value]) => [address, value.toString()])),
    );
    // Per withdrawal: at most one of its payments has a receipt on chain, and a posted one has exactly one, a success.
    const attempts = await queryRows(
      ctx.db,
      sql`SELECT p.withdrawal_id::text AS id, p.hash, d.stage FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id`,
      z.object({ id: z.string(), hash: z.string(), stage: z.string() }),
    );
    const mined = new Map<string, string[]>();
    for (const attempt of attempts) {
      const receipt = await s.testChain.chain.client.getTransactionReceipt({ hash: attempt.hash as Hex }).catch(() => null);
      if (receipt) mined.set(attempt.id, [...(mined.get(attempt.id) ?? []), `${attempt.stage}:${receipt.status}`]);
    }
    for (const [, outcomes] of mined) expect(outcomes.length).toBe(1);
    for (const attempt of attempts.filter((a) => a.stage === 'posted')) expect(mined.get(attempt.id)).toEqual(['posted:success']);
    const paid = [...expected.values()].reduce((sum, value) => sum + value, 0n);
    const reconciled = await reconcileOf(s.app);
    expect(reconciled).toMatchObject({ ok: true, payer: { lost: '0' }, lostPayments: [], reorgedCredits: [], stuckPayments: [] });
    expect(reconciled?.difference).not.toMatch(/^-/);
    expect(reconciled?.chain.payer).toBe(formatMinor((parseUnits(fundedTokens, s.testChain.decimals) - paid) / 10n ** BigInt(s.testChain.decimals - 6)));
  }

  it('pays an approved withdrawal once: signed, stored, sent, then posted at depth; the record shows paid and the hash', async () => {
    const s = await setup();
    const alice = await member(s, accounts.alice, '100');
    const { id, status } = await withdrawn(s.app, alice, '20');
    expect(status).toBe('approved');
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ leader: true, signed: 1 });
    expect(await stageOf(id)).toBe('sent');
    const sent = (await records(s.app, alice))[0];
    expect(sent).toMatchObject({ type: 'withdraw', amount: '-20', status: 'sent' });
    expect(sent?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // Mined at once (automine), but not deep enough until CONFIRMATIONS blocks are on top.
    expect(await payer.round()).toMatchObject({ posted: 0, signed: 0 });
    await s.testChain.mine(CONFIRMATIONS);
    expect(await payer.round()).toMatchObject({ posted: 1 });
    expect((await records(s.app, alice))[0]).toMatchObject({ type: 'withdraw', amount: '-20', status: 'done', txHash: sent?.txHash });
    const balance = await s.testChain.chain.client.readContract({ address: s.testChain.token, abi: erc20Abi, functionName: 'balanceOf', args: [accounts.alice.address] });
    expect(balance).toBe(parseUnits('19', s.testChain.decimals));
    expect(await credit(s.app, alice)).toBe('80');
    // Rounds after it change nothing.
    expect(await payer.round()).toMatchObject({ signed: 0, posted: 0, voided: 0, rebroadcast: 0 });
    await expectPaidOnce(s);
  });

  it('waits for the operator above AUTO_APPROVE_MAX; a failed one is refunded and never paid, an approved one is', async () => {
    const s = await setup({ autoApproveMax: '10' });
    const alice = await member(s, accounts.alice, '100');
    const small = await withdrawn(s.app, alice, '10');
    const big = await withdrawn(s.app, alice, '30');
    const refused = await withdrawn(s.app, alice, '25');
    expect([small.status, big.status, refused.status]).toEqual(['approved', 'pending', 'pending']);
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 1 });
    expect(envelope(await decide(s.app, { id: refused.id, status: 'failed' }))).toMatchObject({ code: 0, result: { status: 'failed', reason: 'rejected' } });
    expect(envelope(await decide(s.app, { id: big.id, status: 'approved' }))).toMatchObject({ code: 0, result: { status: 'approved' } });
    expect(await payer.round()).toMatchObject({ signed: 1 });
    // A sent payment is the chain's: the operator can no longer fail it.
    expectRefused(await decide(s.app, { id: big.id, status: 'failed' }), ApiCode.alreadyDecided);
    await s.testChain.mine(CONFIRMATIONS);
    await settle(s, payer);
    expect(await credit(s.app, alice)).toBe('60');
    await expectPaidOnce(s);
  });

  it('never pays more than the hot wallet holds: it waits, reconcile says why, and pays once funded', async () => {
    const s = await setup({ payerTokens: '15' });
    const alice = await member(s, accounts.alice, '100');
    await withdrawn(s.app, alice, '10');
    const second = await withdrawn(s.app, alice, '20');
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 1, waiting: 'token' });
    expect(await reconcileOf(s.app)).toMatchObject({ payer: { approved: '19', waiting: 'token' }, pendingPayments: '9' });
    expect(await stageOf(second.id)).toBe('approved');
    await s.testChain.fund(s.payerAddress, '100');
    await settle(s, payer);
    expect(await stageOf(second.id)).toBe('posted');
    expect(await reconcileOf(s.app)).toMatchObject({ payer: { approved: '0', waiting: null }, pendingPayments: '0' });
    await expectPaidOnce(s, '115');
  });

  it('broadcasts the same bytes again when the node drops the transaction; one payment', async () => {
    const s = await setup({ automine: false });
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 1 });
    const [payment] = await queryRows(ctx.db, sql`SELECT hash FROM payments WHERE withdrawal_id = ${id}::bigint`, z.object({ hash: z.string() }));
    await s.testChain.rpc('anvil_dropTransaction', [payment?.hash]);
    await s.testChain.mine(1);
    expect(await s.testChain.chain.client.getTransactionReceipt({ hash: payment?.hash as Hex }).catch(() => null)).toBeNull();
    expect(await payer.round()).toMatchObject({ signed: 0, rebroadcast: 1 });
    await s.testChain.mine(CONFIRMATIONS + 1);
    expect(await payer.round()).toMatchObject({ posted: 1 });
    const hashes = await queryRows(ctx.db, sql`SELECT hash FROM payments WHERE withdrawal_id = ${id}::bigint`, z.object({ hash: z.string() }));
    expect(hashes).toEqual([payment]);
    await expectPaidOnce(s);
  });

  it('replaces a stuck payment (the base fee raised past it) with the same nonce and a higher fee; whichever is mined pays, once', async () => {
    const s = await setup({ automine: false });
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const payer = s.payer({ stuckAfterMs: 1_000 });
    expect(await payer.round()).toMatchObject({ signed: 1 });
    await s.testChain.rpc('anvil_setNextBlockBaseFeePerGas', [`0x${(500n * 10n ** 9n).toString(16)}`]);
    await s.testChain.mine(1);
    ctx.clock.advance(2_000);
    expect(await payer.round()).toMatchObject({ replaced: 1 });
    await s.testChain.mine(CONFIRMATIONS + 1);
    await settle(s, payer);
    const attempts = await queryRows(ctx.db, sql`SELECT nonce::text AS nonce, max_fee_per_gas AS fee FROM payments WHERE withdrawal_id = ${id}::bigint ORDER BY created_at`, z.object({ nonce: z.string(), fee: z.string() }));
    expect(attempts.length).toBe(2);
    expect(new Set(attempts.map((attempt) => attempt.nonce)).size).toBe(1);
    expect(BigInt(attempts[1]?.fee ?? '0')).toBeGreaterThan(BigInt(attempts[0]?.fee ?? '0'));
    expect(await stageOf(id)).toBe('posted');
    await expectPaidOnce(s);
  });

  it.for([
    { chain: 'whose base fee is 0', legacy: false },
    { chain: 'without EIP-1559 pricing (its blocks have no base fee: a legacy gas price)', legacy: true },
  ])('replaces a payment unmined past its time on a chain $chain: the fee raised by the replacement rule, paid once', async ({ legacy }) => {
    const s = await setup({ automine: false });
    await s.testChain.rpc('anvil_setNextBlockBaseFeePerGas', ['0x0']);
    await s.testChain.mine(1);
    let chain = s.testChain.chain;
    if (legacy) {
      // The node as a pre-London chain's answers its blocks. (anvil --hardfork berlin fills EIP-1559 fees into the
      // test wallets' own transactions through eth_fillTransaction, then refuses them.)
      const relay = await relayOf(s);
      relay.on('eth_getBlockByNumber', async (_params, forward) => ({ ...((await forward()) as object), baseFeePerGas: undefined }));
      chain = relayedChain(s.testChain.chain, [relay]);
    }
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const payer = s.payer({ stuckAfterMs: 1_000, chain });
    expect(await payer.round()).toMatchObject({ signed: 1 });
    ctx.clock.advance(2_000);
    expect(await payer.round()).toMatchObject({ replaced: 1 });
    await settle(s, payer);
    const attempts = await queryRows(
      ctx.db,
      sql`SELECT raw, max_fee_per_gas AS fee FROM payments WHERE withdrawal_id = ${id}::bigint ORDER BY created_at`,
      z.object({ raw: z.string(), fee: z.string() }),
    );
    expect(attempts.length).toBe(2);
    // A legacy transaction is an RLP list (0xc0 and above); an EIP-1559 one starts with its type, 0x02.
    expect(attempts.map((attempt) => attempt.raw.startsWith('0x02'))).toEqual([!legacy, !legacy]);
    expect(BigInt(attempts[1]?.fee ?? '0')).toBe((BigInt(attempts[0]?.fee ?? '0') * 9n + 7n) / 8n);
    expect(await stageOf(id)).toBe('posted');
    await expectPaidOnce(s);
  });

  it('voids a reverted payment (the payer short of gas): the member gets it all back, the record says why', async () => {
    const s = await setup();
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const payer = s.payer({ gasLimit: 30_000n });
    expect(await payer.round()).toMatchObject({ signed: 1 });
    await s.testChain.mine(CONFIRMATIONS);
    expect(await payer.round()).toMatchObject({ voided: 1, posted: 0 });
    expect(await stageOf(id)).toBe('voided');
    expect(await credit(s.app, alice)).toBe('100');
    expect((await records(s.app, alice)).find((record) => record.amount === '-20')).toMatchObject({ status: 'failed', reason: 'reverted' });
    await expectPaidOnce(s);
  });

  it('sends again a payment a reorganisation removed before its depth, and posts it once', async () => {
    const s = await setup();
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 1 });
    await s.testChain.mine(1);
    expect(await payer.round()).toMatchObject({ posted: 0 });
    const [kept] = await queryRows(ctx.db, sql`SELECT block_hash AS "blockHash" FROM payments WHERE withdrawal_id = ${id}::bigint`, z.object({ blockHash: z.string().nullable() }));
    expect(kept?.blockHash).toMatch(/^0x/);
    // The payment's block and the one on it replaced by empty blocks.
    await s.testChain.rpc('anvil_reorg', [2, []]);
    expect(await payer.round()).toMatchObject({ rebroadcast: 1, posted: 0 });
    await s.testChain.mine(CONFIRMATIONS + 1);
    expect(await payer.round()).toMatchObject({ posted: 1 });
    await expectPaidOnce(s);
  });

  it.for([
    { fault: 'a reorganisation deeper than the confirmations', shorter: false },
    { fault: 'the chain rolled back past it, then grown again past its height', shorter: true },
  ])('keeps a posted payment that $fault removed: the same bytes go out again, reconcile shows it lost until mined', async ({ shorter }) => {
    const s = await setup();
    const alice = await member(s, accounts.alice, '100');
    // Blocks enough that the fault leaves the hot wallet's and the treasury's funding alone (without it, the payment
    // mined again reverts).
    await s.testChain.mine(CONFIRMATIONS + 3);
    const { id } = await withdrawn(s.app, alice, '20');
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 1 });
    await s.testChain.mine(CONFIRMATIONS);
    expect(await payer.round()).toMatchObject({ posted: 1, lost: 0 });
    const paidIn = async () =>
      (await queryRows(ctx.db, sql`SELECT hash, block_hash AS "blockHash" FROM payments WHERE withdrawal_id = ${id}::bigint`, z.object({ hash: z.string(), blockHash: z.string().nullable() })))[0];
    const before = await paidIn();
    expect(await s.testChain.chain.client.getTransactionReceipt({ hash: before?.hash as Hex })).toMatchObject({ blockHash: before?.blockHash });

    if (shorter) {
      await s.testChain.rpc('anvil_rollback', [CONFIRMATIONS + 2]);
      // No block at its height is doubt (a node that lags answers the same): nothing decided, nothing sent.
      expect(await payer.round()).toMatchObject({ lost: 0, rebroadcast: 0 });
      expect(await paidIn()).toEqual(before);
      // Another block at its height: now it is gone.
      await s.testChain.mine(CONFIRMATIONS + 2);
    } else {
      await s.testChain.rpc('anvil_reorg', [CONFIRMATIONS + 2, []]);
    }
    await expect(s.testChain.chain.client.getTransactionReceipt({ hash: before?.hash as Hex })).rejects.toThrow(/could not be found/);
    // Lost: its block forgotten, the same bytes sent again (the node mines them at once); the posting stands.
    const lost = await payer.round();
    expect(lost).toMatchObject({ lost: 1, posted: 0, voided: 0, signed: 0 });
    expect(await paidIn()).toEqual({ hash: before?.hash, blockHash: null });
    await expectLostInReconcile(s, { id, hash: before?.hash, reason: 'reorganised' });
    expect(await stageOf(id)).toBe('posted');
    expect((await records(s.app, alice)).find((record) => record.amount === '-20')).toMatchObject({ status: 'done', txHash: before?.hash });
    // Mined again: recorded in its new block, nothing lost, paid once.
    expect(await payer.round()).toMatchObject({ lost: 0, signed: 0 });
    const after = await paidIn();
    expect(after?.blockHash).toMatch(/^0x/);
    expect(after?.blockHash).not.toBe(before?.blockHash);
    await expectPaidOnce(s);
  });

  it('never flags a posted payment lost while the node lags behind its block: a block answered "not found" is doubt', async () => {
    const s = await setup();
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const lost: string[] = [];
    const onLost = (event: { withdrawalId: bigint; reason: string }) => lost.push(`${event.withdrawalId}:${event.reason}`);
    expect(await s.payer({ onLost }).round()).toMatchObject({ signed: 1 });
    await s.testChain.mine(CONFIRMATIONS);
    expect(await s.payer({ onLost }).round()).toMatchObject({ posted: 1 });
    const kept = async () => (await queryRows(ctx.db, sql`SELECT block_hash AS "blockHash" FROM payments WHERE withdrawal_id = ${id}::bigint`, z.object({ blockHash: z.string().nullable() })))[0];
    const before = await kept();
    expect(before?.blockHash).toMatch(/^0x/);
    // Never from absence: a node behind the payment's block answers "not found" for the block and for the receipt.
    const relay = await relayOf(s);
    relay.lag(CONFIRMATIONS + 2);
    const lagging = s.payer({ chain: relayedChain(s.testChain.chain, [relay]), onLost });
    expect(await lagging.round()).toMatchObject({ lost: 0, rebroadcast: 0 });
    expect(lost).toEqual([]);
    expect(await kept()).toEqual(before);
    // Caught up: the same block there, nothing happened.
    relay.lag(0);
    expect(await lagging.round()).toMatchObject({ lost: 0, rebroadcast: 0 });
    expect(lost).toEqual([]);
    await expectPaidOnce(s);
  });

  it('keeps a sent payment\'s receipt while a node lags behind its block: only a replaced block forgets it', async () => {
    const s = await setup();
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 1 });
    // Mined at once; the next round keeps its receipt (not deep yet).
    expect(await payer.round()).toMatchObject({ posted: 0 });
    const kept = async () => (await queryRows(ctx.db, sql`SELECT block_hash AS "blockHash" FROM payments WHERE withdrawal_id = ${id}::bigint`, z.object({ blockHash: z.string().nullable() })))[0];
    const before = await kept();
    expect(before?.blockHash).toMatch(/^0x/);
    const relay = await relayOf(s);
    relay.lag(2);
    expect(await s.payer({ chain: relayedChain(s.testChain.chain, [relay]) }).round()).toMatchObject({ posted: 0, voided: 0 });
    expect(await kept()).toEqual(before);
    relay.lag(0);
    await s.testChain.mine(CONFIRMATIONS);
    expect(await payer.round()).toMatchObject({ posted: 1 });
    await expectPaidOnce(s);
  });

  it('keeps a posted payment mined again as reverted lost in reconcile, for the operator; it is not sent again', async () => {
    const s = await setup();
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const lost: string[] = [];
    const payer = s.payer({ onLost: (event) => lost.push(`${event.withdrawalId}:${event.reason}`) });
    expect(await payer.round()).toMatchObject({ signed: 1 });
    await s.testChain.mine(CONFIRMATIONS);
    expect(await payer.round()).toMatchObject({ posted: 1 });
    // Rolled back past the hot wallet's funding (its block, the treasury's, the payment's and those on it), then grown
    // again past the payment's height: the same bytes, mined again, revert.
    await s.testChain.rpc('anvil_rollback', [CONFIRMATIONS + 3]);
    await s.testChain.mine(CONFIRMATIONS + 3);
    expect(await payer.round()).toMatchObject({ lost: 1 });
    expect(await payer.round()).toMatchObject({ lost: 0, rebroadcast: 0, paused: true });
    expect(lost).toEqual([`${id}:reorganised`, `${id}:reverted`]);
    // Payouts paused on the lost payment: a new withdrawal waits, and resuming is refused while it is lost.
    const next = await withdrawn(s.app, alice, '10');
    expect(await payer.round()).toMatchObject({ signed: 0, paused: true });
    expect(await stageOf(next.id)).toBe('approved');
    const finance = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    expect(envelope(await resumePayouts(s.app, finance, await openPauseId(s.app, ['lostPayment']))).code).toBe(3010);
    await expectLostInReconcile(s, { id, hash: (await paymentOf(id))?.hash, reason: 'reverted' });
    expect(await stageOf(id)).toBe('posted');
    await expectBooksBalanced(ctx.db);
  });

  it('fails the round when the node cannot say whether a payment was mined: never voids a payment that may be paid', async () => {
    const s = await setup();
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    // A relay to the node that fails every receipt read, as a provider in trouble does.
    const relay = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (body.includes('eth_getTransactionReceipt')) {
          response.writeHead(503).end('unavailable');
          return;
        }
        void fetch(s.testChain.node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (answer) => {
          response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
        });
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const address = relay.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      expect(await s.payer().round()).toMatchObject({ signed: 1 });
      // Mined and deep: the chain's nonce is past the payment's, and its receipt cannot be read.
      await s.testChain.mine(CONFIRMATIONS + 1);
      const blind = s.payer({ chain: { ...s.testChain.chain, client: chainClient([`http://127.0.0.1:${port}`]) } });
      await expect(blind.round()).rejects.toThrow();
      expect(await stageOf(id)).toBe('sent');
      expect(await credit(s.app, alice)).toBe('80');
    } finally {
      await new Promise((resolve) => relay.close(resolve));
    }
    expect(await s.payer().round()).toMatchObject({ posted: 1, voided: 0 });
    await expectPaidOnce(s);
  });

  it('never refunds a paid withdrawal whose receipt the node answers null: the block that took its nonce shows it is ours', async () => {
    const s = await setup();
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    expect(await s.payer().round()).toMatchObject({ signed: 1 });
    await s.testChain.mine(CONFIRMATIONS + 1);
    // Never from absence: the receipt read answered "none" while the nonce at depth is past the payment's.
    const relay = await relayOf(s);
    relay.on('eth_getTransactionReceipt', () => null);
    const blind = s.payer({ chain: relayedChain(s.testChain.chain, [relay]) });
    expect(await blind.round()).toMatchObject({ voided: 0, posted: 0 });
    expect(await stageOf(id)).toBe('sent');
    expect(await credit(s.app, alice)).toBe('80');
    relay.on('eth_getTransactionReceipt', null);
    expect(await blind.round()).toMatchObject({ posted: 1, voided: 0 });
    await expectPaidOnce(s);
  });

  it.for([
    { providers: 'one provider whose backends disagree', fallback: false },
    { providers: 'two providers under fallback, the first behind', fallback: true },
  ])('decides nothing while receipts and blocks come from a node behind the head and nonces ($providers); pays once', async ({ fallback }) => {
    const s = await setup();
    const lag = CONFIRMATIONS + 3;
    // Blocks enough that the lagging node knows the token and the hot wallet's funding.
    await s.testChain.mine(lag);
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    expect(await s.payer().round()).toMatchObject({ signed: 1 });
    const behind = await relayOf(s);
    behind.lag(lag);
    if (fallback) {
      // The first provider refuses the head (as a rate limit does) and errors past its own: the second answers those.
      behind.on('eth_blockNumber', () => {
        throw new RelayError(-32000, 'header not found');
      });
    } else {
      // A load balancer's other backend, up to date, answers the head and the nonces.
      for (const method of ['eth_blockNumber', 'eth_getTransactionCount']) behind.on(method, (params) => s.testChain.rpc(method, params));
    }
    const relays = fallback ? [behind, await relayOf(s)] : [behind];
    const lagging = s.payer({ chain: relayedChain(s.testChain.chain, relays) });
    for (let block = 0; block < lag - 1; block++) {
      await s.testChain.mine(1);
      expect(await lagging.round()).toMatchObject({ voided: 0, posted: 0 });
    }
    expect(await stageOf(id)).toBe('sent');
    expect(await credit(s.app, alice)).toBe('80');
    // Caught up: the payment's block is within what it knows.
    await s.testChain.mine(1);
    expect(await lagging.round()).toMatchObject({ posted: 1, voided: 0 });
    await expectPaidOnce(s);
  });

  /**
   * Another transaction of the hot wallet's key, at `nonce`, sent to the node: a zero-value transfer to itself, or with
   * `tokens` a token transfer of that many to `tokens.to` that names no withdrawal.
   */
  async function sendOwnTransfer(s: Setup, nonce: bigint, tokens?: { to: Address; amount: string }): Promise<Hex> {
    const raw = await privateKeyToAccount(s.payerKey).signTransaction({
      type: 'eip1559',
      chainId: TEST_NODE_CHAIN_ID,
      ...(tokens
        ? { to: s.testChain.token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [tokens.to, parseUnits(tokens.amount, s.testChain.decimals)] }), gas: 100_000n }
        : { to: s.payerAddress, gas: 21_000n }),
      value: 0n,
      nonce: Number(nonce),
      maxFeePerGas: 100n * 10n ** 9n,
      maxPriorityFeePerGas: 10n ** 9n,
    });
    return (await s.testChain.rpc('eth_sendRawTransaction', [raw])) as Hex;
  }

  const paymentOf = async (id: string) =>
    (await queryRows(ctx.db, sql`SELECT hash, nonce::text AS nonce, raw FROM payments WHERE withdrawal_id = ${id}::bigint`, z.object({ hash: z.string(), nonce: z.string(), raw: z.string() })))[0];

  it('voids a payment whose nonce another transaction of the hot wallet took, once that is at depth: the member gets it back', async () => {
    const s = await setup({ automine: false });
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 1 });
    const payment = await paymentOf(id);
    await s.testChain.rpc('anvil_dropTransaction', [payment?.hash]);
    await sendOwnTransfer(s, BigInt(payment?.nonce ?? '0'));
    await s.testChain.mine(1);
    expect(await payer.round()).toMatchObject({ voided: 0 });
    await s.testChain.mine(CONFIRMATIONS);
    expect(await payer.round()).toMatchObject({ voided: 1, posted: 0 });
    expect(await credit(s.app, alice)).toBe('100');
    expect((await records(s.app, alice)).find((record) => record.amount === '-20')).toMatchObject({ status: 'failed', reason: 'nonceUsed' });
    await expectPaidOnce(s);
  });

  it('records a voided payment mined after all (a deeper reorganisation) as lost, paid after its refund, and says so', async () => {
    const s = await setup({ automine: false });
    await s.testChain.mine(CONFIRMATIONS + 3);
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const lost: string[] = [];
    const payer = s.payer({ onLost: (event) => lost.push(`${event.withdrawalId}:${event.reason}`) });
    expect(await payer.round()).toMatchObject({ signed: 1 });
    const payment = await paymentOf(id);
    await s.testChain.rpc('anvil_dropTransaction', [payment?.hash]);
    await sendOwnTransfer(s, BigInt(payment?.nonce ?? '0'));
    await s.testChain.mine(CONFIRMATIONS + 1);
    expect(await payer.round()).toMatchObject({ voided: 1 });
    // The other transaction's block and those on it replaced: the payment's stored bytes are mined instead.
    await s.testChain.rpc('anvil_reorg', [CONFIRMATIONS + 1, [[payment?.raw, 0]]]);
    expect(await payer.round()).toMatchObject({ paidAfterVoid: 1, voided: 0, posted: 0 });
    expect(await payer.round()).toMatchObject({ paidAfterVoid: 0 });
    expect(lost).toEqual([`${id}:paidAfterVoid`]);
    expect(await lostPayments(ctx.db)).toEqual([{ withdrawalId: BigInt(id), address: accounts.alice.address, amount: toMinor('19'), hash: payment?.hash, reason: 'paidAfterVoid' }]);
    // Paid twice, and visible: the member holds the tokens and the credit; reconcile counts the payment lost.
    expect(await credit(s.app, alice)).toBe('100');
    const balance = await s.testChain.chain.client.readContract({ address: s.testChain.token, abi: erc20Abi, functionName: 'balanceOf', args: [accounts.alice.address] });
    expect(balance).toBe(parseUnits('19', s.testChain.decimals));
    await expectLostInReconcile(s, { id, hash: payment?.hash, reason: 'paidAfterVoid' });
    await expectBooksBalanced(ctx.db);
  });

  it('voids a payment mined with status 1 but no Transfer log (a token that returns false): nothing was paid', async () => {
    const s = await setup({ automine: false });
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 1 });
    // For one block the token's code returns false for every call, moving nothing and logging nothing.
    const code = await s.testChain.rpc('eth_getCode', [s.testChain.token, 'latest']);
    await s.testChain.rpc('anvil_setCode', [s.testChain.token, '0x600060005260206000f3']);
    await s.testChain.mine(1);
    await s.testChain.rpc('anvil_setCode', [s.testChain.token, code]);
    const payment = await paymentOf(id);
    expect(await s.testChain.chain.client.getTransactionReceipt({ hash: payment?.hash as Hex })).toMatchObject({ status: 'success', logs: [] });
    await s.testChain.mine(CONFIRMATIONS);
    expect(await payer.round()).toMatchObject({ voided: 1, posted: 0 });
    expect(await credit(s.app, alice)).toBe('100');
    expect((await records(s.app, alice)).find((record) => record.amount === '-20')).toMatchObject({ status: 'failed', reason: 'reverted' });
    await expectPaidOnce(s);
  });

  const recover = async (app: FastifyInstance) =>
    envelope<{ recordedPayments: number; fillers: number; unknownPayments: number; stoppedAt: string | null; knownNonce: string }>(
      await app.inject({ method: 'POST', url: '/api/admin/payer/recover', headers: treasuryHeaders(), payload: { requestId: randomUUID() } }),
    );

  it('signs nothing while another user of the key has a transaction the database does not know; pays once it is dropped', async () => {
    const s = await setup({ automine: false });
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const other = await sendOwnTransfer(s, 0n);
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 0, halted: true });
    expect((await reconcileOf(s.app))?.journal).toMatchObject({ chainNonce: '1', knownNonce: '0', halted: true });
    await s.testChain.rpc('anvil_dropTransaction', [other]);
    expect(await payer.round()).toMatchObject({ signed: 1, halted: false });
    expect((await paymentOf(id))?.nonce).toBe('0');
    await settle(s, payer);
    expect(await stageOf(id)).toBe('posted');
    await expectPaidOnce(s);
  });

  it('halts on a payment of the key made elsewhere until the recovery lists it and finance debits the member it paid; then pays once', async () => {
    const s = await setup({ automine: false });
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    const other = await sendOwnTransfer(s, 0n, { to: accounts.alice.address, amount: '5' });
    await s.testChain.mine(1);
    const payer = s.payer();
    expect(await payer.round()).toMatchObject({ signed: 0, halted: true });
    // Not at depth yet: the recovery reads nothing.
    expect((await recover(s.app)).result).toMatchObject({ unknownPayments: 0, knownNonce: '0' });
    await s.testChain.mine(CONFIRMATIONS);
    expect((await recover(s.app)).result).toMatchObject({ recordedPayments: 0, fillers: 0, unknownPayments: 1, stoppedAt: null, knownNonce: '1' });
    expect(await reconcileOf(s.app)).toMatchObject({
      ok: false,
      journal: { halted: true },
      unknownPayments: [{ hash: other, nonce: '0', kind: 'untagged', to: accounts.alice.address, member: accounts.alice.address, amount: '5', withdrawalId: null, settlement: null }],
    });
    expect(await payer.round()).toMatchObject({ signed: 0, halted: true });
    const settled = await s.app.inject({
      method: 'POST',
      url: '/api/admin/unknownPayments/settle',
      headers: treasuryHeaders(),
      payload: { hash: other, settlement: 'debit', reason: 'paid from the hot wallet by hand', requestId: randomUUID() },
    });
    expect(envelope(settled)).toMatchObject({ code: 0, result: { payment: { settlement: 'debit' }, waitsForSecondApproval: false } });
    expect(await credit(s.app, alice)).toBe('75');
    expect((await records(s.app, alice))[0]).toMatchObject({ type: 'withdraw', amount: '-5', status: 'done', txHash: other });
    // Settled, the journal agrees again; payouts stay paused on the unknown payment until two operators resume them.
    expect(await payer.round()).toMatchObject({ signed: 0, halted: false, paused: true });
    const pauseId = await openPauseId(s.app, ['unknownPayment']);
    const [ann, ben] = [await operatorWithSession(ctx.db, ['finance'], ctx.clock.now()), await operatorWithSession(ctx.db, ['finance'], ctx.clock.now())];
    expect(envelope(await resumePayouts(s.app, ann, pauseId)).result).toMatchObject({ waitsForSecondApproval: true });
    expect(envelope(await resumePayouts(s.app, ben, pauseId)).result).toMatchObject({ resumed: true });
    expect(await payer.round()).toMatchObject({ signed: 1, halted: false, paused: false });
    expect((await paymentOf(id))?.nonce).toBe('1');
    await settle(s, payer);
    expect(await stageOf(id)).toBe('posted');
    await expectBooksBalanced(ctx.db);
    expect(await reconcileOf(s.app)).toMatchObject({ ok: true, unknownPayments: [], journal: { halted: false } });
  });

  it('fills a nonce hole a reorganisation deeper than the confirmations left below its payment with a zero-value transfer; pays once', async () => {
    const s = await setup({ automine: false });
    await s.testChain.mine(CONFIRMATIONS + 3);
    const alice = await member(s, accounts.alice, '100');
    // Another transaction of the key at nonce 0, recorded by the recovery once at depth; the payment signs at 1.
    await sendOwnTransfer(s, 0n);
    await s.testChain.mine(CONFIRMATIONS + 1);
    expect((await recover(s.app)).result).toMatchObject({ fillers: 1, knownNonce: '1' });
    const { id } = await withdrawn(s.app, alice, '20');
    const payer = s.payer({ stuckAfterMs: 1_000 });
    expect(await payer.round()).toMatchObject({ signed: 1 });
    expect((await paymentOf(id))?.nonce).toBe('1');
    // The blocks from the other transaction's on replaced by empty ones: nonce 0 is free again, a hole below ours.
    await s.testChain.rpc('anvil_reorg', [CONFIRMATIONS + 2, []]);
    await s.testChain.rpc('anvil_dropAllTransactions', []);
    expect(await payer.round()).toMatchObject({ filled: 0, replaced: 0 });
    ctx.clock.advance(2_000);
    expect(await payer.round()).toMatchObject({ filled: 1, replaced: 0 });
    await settle(s, payer);
    expect(await stageOf(id)).toBe('posted');
    await expectPaidOnce(s);
  });

  it('follows a rotated key\'s payment to the end: the new key\'s payer sends its stored bytes again and posts it', async () => {
    const s = await setup({ automine: false });
    const alice = await member(s, accounts.alice, '100');
    const { id } = await withdrawn(s.app, alice, '20');
    expect(await s.payer().round()).toMatchObject({ signed: 1 });
    await s.testChain.rpc('anvil_dropTransaction', [(await paymentOf(id))?.hash]);
    // PAYER_KEY rotated: another key, another instance; the old key's payment is in flight and the node lost it.
    const rotated = s.payer({ key: generatePrivateKey(), holder: 'rotated' });
    expect(await rotated.round()).toMatchObject({ leader: true, rebroadcast: 1, signed: 0 });
    await s.testChain.mine(CONFIRMATIONS + 1);
    await settle(s, rotated);
    expect(await stageOf(id)).toBe('posted');
    await expectPaidOnce(s);
  });

  for (const crashAt of ['signed', 'stored', 'broadcast', 'receipt', 'beforePost'] as const satisfies readonly PayerStep[]) {
    it(`stops at "${crashAt}" as a crash does; a new payer goes on from what is stored and pays each once`, async () => {
      const s = await setup();
      const alice = await member(s, accounts.alice, '200');
      const ids = await Promise.all(['10', '20', '30'].map(async (amount) => (await withdrawn(s.app, alice, amount)).id));
      const crashing = s.payer({
        onStep: (step) => {
          if (step === crashAt) throw new Crash(crashAt);
        },
      });
      for (let round = 0; round < 6; round++) {
        const crashed = await crashing.round().then(
          () => false,
          (error: unknown) => error instanceof Crash,
        );
        if (crashed) break;
        await s.testChain.mine(CONFIRMATIONS);
        if (round === 5) throw new Error(`the payer never reached ${crashAt}`);
      }
      // Another instance takes over (the lease is the same name here: a restart of the same instance).
      await settle(s);
      for (const id of ids) expect(await stageOf(id)).toBe('posted');
      expect(await credit(s.app, alice)).toBe('140');
      await expectPaidOnce(s);
    });
  }

  it('pays with one payer whatever the instances: two round at once, one holds the lease, each withdrawal paid once', async () => {
    const s = await setup();
    const alice = await member(s, accounts.alice, '500');
    const bob = await member(s, accounts.bob, '500');
    for (const [token, amounts] of [
      [alice, ['10', '11', '12.5']],
      [bob, ['13', '14.25', '15']],
    ] as const) {
      for (const amount of amounts) await withdrawn(s.app, token, amount);
    }
    const first = s.payer({ holder: 'instance-1', leaseMs: 60_000 });
    const second = s.payer({ holder: 'instance-2', leaseMs: 60_000 });
    const rounds = await Promise.all([first.round(), second.round(), first.round(), second.round()]);
    expect(rounds.filter((round) => round.leader).length).toBeGreaterThan(0);
    // Only the holder of the lease paid.
    const leaders = new Set(rounds.map((round, index) => (round.leader ? index % 2 : -1)).filter((index) => index >= 0));
    expect(leaders.size).toBe(1);
    expect(rounds.reduce((sum, round) => sum + round.signed, 0)).toBe(6);
    await s.testChain.mine(CONFIRMATIONS);
    await settle(s, leaders.has(0) ? first : second);
    expect([await credit(s.app, alice), await credit(s.app, bob)]).toEqual(['466.5', '457.75']);
    await expectPaidOnce(s);
  });
});
