/**
 * Held top-ups in the operators' desk (docs/operations.md, "Held top-ups"), on one real node (anvil)
 * for the file and every database target: senders that are no member send real token transfers to the treasury,
 * the watcher holds them, and an operator lists them, releases one to a member or has the payer return one to its
 * sender on chain. Each is decided once, whoever races: two operators returning it, a release and the sender's own
 * first sign-in. After every money test the books balance and reconcile is ok.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { parseAbiItem, parseUnits, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { createPayer, type Payer } from '../../server/chain/payer';
import { markLost } from '../../server/chain/payer/payments';
import { createTopUpWatcher } from '../../server/chain/topUpWatcher';
import { queryRows } from '../../server/db/client';
import { systemAccountId } from '../../server/ledger/accounts';
import { expectRefused } from './support/assertions';
import { startTestChain, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, systemBalance, treasuryHeaders } from './support/testLedger';
import { addOperator, signInOperator } from './support/testOperators';
import { accounts, authHeaders, envelope, signIn, signInBound } from './support/memberSignIn';

const CONFIRMATIONS = 2;
const HELD = systemAccountId('CREDIT', 'held_top_ups');
/** Two finance operators and a support operator (fixed keys: stable addresses). */
const operators = {
  ann: privateKeyToAccount('0x6666666666666666666666666666666666666666666666666666666666666666'),
  ben: privateKeyToAccount('0x7777777777777777777777777777777777777777777777777777777777777777'),
  sue: privateKeyToAccount('0x8888888888888888888888888888888888888888888888888888888888888888'),
};
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

let testChain: TestChain;
beforeAll(async () => {
  testChain = await startTestChain({ confirmations: CONFIRMATIONS });
}, 60_000);
afterAll(async () => {
  await testChain.stop();
});

interface HeldTopUp {
  txHash: string;
  logPosition: number;
  from: string;
  amount: string;
  blockNumber: string;
  seenAt: string;
  senderIsContract: boolean | null;
  reorged: boolean;
  state: string;
  releasedTo?: string;
  returnId?: string;
  returnTxHash?: string;
}

describeWithDatabases('held top-ups in the operators\' desk', (ctx) => {
  interface Setup {
    app: FastifyInstance;
    /** A second instance on PostgreSQL (its own pool), the same app on PGlite. */
    other: FastifyInstance;
    /** The watcher's round: credits (or holds) what is at depth. */
    watch(): Promise<void>;
    payerAddress: Address;
    payer(options?: { gasLimit?: bigint }): Payer;
    /** The operators' session headers: Ann and Ben hold finance, Sue support. */
    ann: Record<string, string>;
    ben: Record<string, string>;
    sue: Record<string, string>;
  }

  async function setup(): Promise<Setup> {
    // The chain is the file's: this test reads only the blocks after its start (its database starts empty).
    const startBlock = (await testChain.head()) + 1n;
    const payerKey = generatePrivateKey();
    const payerAddress = privateKeyToAccount(payerKey).address;
    await testChain.fund(payerAddress, '1000');
    const [app, other = app] = await ctx.instances({ chain: testChain.chain, topUpWatcher: { startBlock } });
    const watcher = createTopUpWatcher({ db: ctx.db, chain: testChain.chain, now: ctx.clock.now, startBlock });
    const payer = (options: { gasLimit?: bigint } = {}) => createPayer({ db: ctx.db, chain: testChain.chain, key: payerKey, holder: 'app', now: ctx.clock.now, ...options });
    await addOperator(ctx.db, operators.ann.address, ['finance']);
    await addOperator(ctx.db, operators.ben.address, ['finance']);
    await addOperator(ctx.db, operators.sue.address, ['support']);
    const session = async (account: PrivateKeyAccount) => (await signInOperator(app as FastifyInstance, account, ctx.clock.now())).headers;
    return {
      ann: await session(operators.ann),
      ben: await session(operators.ben),
      sue: await session(operators.sue),
      app: app as FastifyInstance,
      other: other as FastifyInstance,
      watch: async () => {
        await testChain.mine(CONFIRMATIONS);
        await watcher.runOnce();
      },
      payerAddress,
      payer,
    };
  }

  /** A sender that is no member: a fresh wallet with tokens, which sends `amount` to the treasury. */
  async function heldFrom(amount: string): Promise<{ sender: PrivateKeyAccount; txHash: Hex }> {
    const sender = privateKeyToAccount(generatePrivateKey());
    await testChain.fund(sender.address, amount);
    const txHash = await testChain.transfer(sender, amount);
    return { sender, txHash };
  }

  const list = async (app: FastifyInstance, query: Record<string, string> = {}) =>
    envelope<{ list: HeldTopUp[]; nextCursor: string | null; total: number }>(await app.inject({ method: 'GET', url: '/api/admin/topUps/held', headers: treasuryHeaders(), query }));

  const release = (app: FastifyInstance, txHash: string, address: string, headers = treasuryHeaders()) =>
    app.inject({ method: 'POST', url: '/api/admin/topUps/release', headers, payload: { txHash, logPosition: 0, address, requestId: randomUUID() } });

  const giveBack = (app: FastifyInstance, txHash: string, headers = treasuryHeaders()) =>
    app.inject({ method: 'POST', url: '/api/admin/topUps/return', headers, payload: { txHash, logPosition: 0, requestId: randomUUID() } });

  const credit = async (app: FastifyInstance, token: string) =>
    envelope<{ creditBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).result?.creditBalance;

  /** The books balance and reconcile is ok: the tokens back what the ledger owes, nothing lost, reorganised away or stuck. */
  async function expectSettledBooks(app: FastifyInstance) {
    await expectBooksBalanced(ctx.db);
    const reconciled = envelope<{ ok: boolean; difference: string }>(await app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: treasuryHeaders() })).result;
    expect(reconciled).toMatchObject({ ok: true, lostPayments: [], reorgedCredits: [], stuckPayments: [] });
  }

  /** What the hot wallet paid `to` on chain since the file's chain started, in token units. */
  async function paidOnChain(from: Address, to: Address): Promise<bigint> {
    const logs = await testChain.chain.client.getLogs({ address: testChain.token, event: transferEvent, args: { from, to }, fromBlock: 0n, toBlock: 'latest' });
    return logs.reduce((sum, log) => sum + (log.args.value ?? 0n), 0n);
  }

  /** Payer rounds, a block mined after each, until no return or withdrawal is approved or sent. */
  async function settle(payer: Payer): Promise<void> {
    for (let attempt = 0; attempt < 20; attempt++) {
      await payer.round();
      const [open] = await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM ledger_pending WHERE stage IN ('sent', 'approved')`, z.object({ n: z.number() }));
      if (open?.n === 0) return;
      await testChain.mine(1);
    }
    throw new Error('payments did not settle in 20 rounds');
  }

  /** The audit rows of held top-ups' acts, oldest first. */
  const audited = () =>
    queryRows(
      ctx.db,
      sql`SELECT action, target, actor_address AS actor, via, request_id AS "requestId", before->>'state' AS "before", after->>'state' AS "after"
          FROM audit_log WHERE action LIKE 'opsHeldTopUp%' ORDER BY id`,
      z.object({ action: z.string(), target: z.string(), actor: z.string().nullable(), via: z.string(), requestId: z.string(), before: z.string(), after: z.string() }),
    );

  const withdrawalRows = () => queryRows(ctx.db, sql`SELECT id::text, amount::text, to_address AS "to" FROM withdrawals WHERE member_id IS NULL`, z.object({ id: z.string(), amount: z.string(), to: z.string() }));

  it('lists held top-ups oldest first, a page at a time, with whether the sender is a contract', async () => {
    const s = await setup();
    const first = await heldFrom('1.5');
    const second = await heldFrom('2');
    const member = await signInBound(s.app, accounts.alice, ctx.clock.now());
    await testChain.fund(accounts.alice.address, '3');
    await testChain.transfer(accounts.alice, '3');
    // The second sender has code now (as a contract or an account that delegates to one has).
    await testChain.rpc('anvil_setCode', [second.sender.address, '0x60006000fd']);
    await s.watch();
    expect(await credit(s.app, member)).toBe('3');

    const page1 = await list(s.app, { limit: '1' });
    expect(page1).toMatchObject({
      code: 0,
      result: { list: [{ txHash: first.txHash, logPosition: 0, from: first.sender.address, amount: '1.5', senderIsContract: false, reorged: false, state: 'held' }], total: 2 },
    });
    expect(page1.result?.nextCursor).toMatch(/^\d+:0x[0-9a-f]{64}:0$/);
    const page2 = await list(s.app, { limit: '1', cursor: page1.result?.nextCursor ?? '' });
    // The total counts every page's top-ups in the state, whichever page is read; alice's own top-up is not held.
    expect(page2.result).toEqual({ list: [expect.objectContaining({ txHash: second.txHash, amount: '2', senderIsContract: true, state: 'held' })], nextCursor: null, total: 2 });
    expect(page2.result?.list[0]?.seenAt).toBe(ctx.clock.now().toISOString());
    expect((await list(s.app, { state: 'released' })).result).toEqual({ list: [], nextCursor: null, total: 0 });
    expectRefused(await s.app.inject({ method: 'GET', url: '/api/admin/topUps/held', query: { limit: '101' }, headers: treasuryHeaders() }), ApiCode.invalidParameters);
    expectRefused(await s.app.inject({ method: 'GET', url: '/api/admin/topUps/held' }), ApiCode.notSignedIn);
    expectRefused(await s.app.inject({ method: 'GET', url: '/api/admin/topUps/held', headers: s.sue }), ApiCode.roleRequired);
    expectRefused(await giveBack(s.app, first.txHash, s.sue), ApiCode.roleRequired);
    expect((await list(s.app)).result?.list).toHaveLength(2);
    expect(await systemBalance(ctx.db, HELD)).toBe('3500000');
    await expectSettledBooks(s.app);
  });

  it('releases a held top-up to a member once; then it is neither released elsewhere nor returned', async () => {
    const s = await setup();
    const { txHash } = await heldFrom('4.25');
    const bob = await signInBound(s.app, accounts.bob, ctx.clock.now());
    await signInBound(s.app, accounts.carol, ctx.clock.now());
    await s.watch();
    expectRefused(await release(s.app, txHash, accounts.dave.address), ApiCode.notFound);
    expectRefused(await release(s.app, `0x${'ab'.repeat(32)}`, accounts.bob.address), ApiCode.notFound);

    const requestId = randomUUID();
    const released = envelope<HeldTopUp>(
      await s.app.inject({
        method: 'POST',
        url: '/api/admin/topUps/release',
        headers: s.ann,
        payload: { txHash: txHash.toUpperCase().replace('0X', '0x'), logPosition: 0, address: accounts.bob.address, requestId },
      }),
    );
    expect(released).toMatchObject({ code: 0, result: { txHash, state: 'released', releasedTo: accounts.bob.address, amount: '4.25' } });
    expect(await credit(s.app, bob)).toBe('4.25');
    const records = envelope<{ list: { type: string; amount: string }[] }>(await s.app.inject({ method: 'GET', url: '/api/member/creditRecord', headers: authHeaders(bob) })).result?.list;
    expect(records).toEqual([expect.objectContaining({ type: 'topUp', amount: '4.25' })]);
    // The same release again answers it as it is; anything else is decided already.
    expect(envelope(await release(s.app, txHash, accounts.bob.address))).toMatchObject({ code: 0, result: { state: 'released' } });
    expectRefused(await release(s.app, txHash, accounts.carol.address), ApiCode.alreadyDecided);
    expectRefused(await giveBack(s.app, txHash), ApiCode.alreadyDecided);
    expect(await credit(s.app, bob)).toBe('4.25');
    expect((await list(s.app)).result).toEqual({ list: [], nextCursor: null, total: 0 });
    expect((await list(s.app, { state: 'released' })).result).toEqual({ list: [expect.objectContaining({ txHash, releasedTo: accounts.bob.address })], nextCursor: null, total: 1 });
    expect(await systemBalance(ctx.db, HELD)).toBe('0');
    // One audit row for the act done; none for its repeat, which changed nothing, nor for those refused.
    const target = `${txHash}/0`;
    expect(await audited()).toEqual([{ action: 'opsHeldTopUpRelease', target, actor: operators.ann.address, via: 'session', requestId, before: 'held', after: 'released' }]);
    await expectSettledBooks(s.app);
  });

  it('a release above what one operator releases alone waits for a second to the same member; nobody releases to themselves', async () => {
    const s = await setup();
    const { txHash } = await heldFrom('1500');
    const { txHash: small } = await heldFrom('2');
    const bob = await signInBound(s.app, accounts.bob, ctx.clock.now());
    await signInBound(s.app, accounts.carol, ctx.clock.now());
    await s.watch();
    // Ann, a finance operator, is also the member with her wallet's address: never to herself (1007).
    await signInBound(s.app, operators.ann, ctx.clock.now());
    expectRefused(await release(s.app, small, operators.ann.address, s.ann), ApiCode.selfActRefused);
    // 1,500 is above 1,000 alone: Ann's release waits; again it waits (counted once); Ben's to another member is 3006.
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(envelope(await release(s.app, txHash, accounts.bob.address, s.ann))).toMatchObject({
        code: 0,
        result: { state: 'held', waitsForSecondApproval: true, approvals: [operators.ann.address] },
      });
    }
    expect(await credit(s.app, bob)).toBe('0');
    expectRefused(await release(s.app, txHash, accounts.carol.address, s.ben), ApiCode.alreadyDecided);
    // Ben's release to Bob completes it: credited once.
    expect(envelope(await release(s.app, txHash, accounts.bob.address, s.ben))).toMatchObject({ code: 0, result: { state: 'released', releasedTo: accounts.bob.address } });
    expect(await credit(s.app, bob)).toBe('1500');
    expect((await audited()).filter((row) => row.target === `${txHash}/0`).map((row) => [row.actor, row.after])).toEqual([
      [operators.ann.address, 'held'],
      [operators.ben.address, 'released'],
    ]);
    await expectSettledBooks(s.app);
  });

  it('returns a held top-up to its sender on chain exactly once, though two operators return it at once and the payer restarts', async () => {
    const s = await setup();
    const { sender, txHash } = await heldFrom('7.5');
    await s.watch();
    // Two finance operators at once, on two instances where there are two.
    const answers = await Promise.all([giveBack(s.app, txHash, s.ann), giveBack(s.other, txHash, s.ben)]);
    const codes = answers.map((answer) => envelope(answer).code).sort((a, b) => a - b);
    expect([[0, 0], [0, ApiCode.requestInProgress]]).toContainEqual(codes);
    const returns = await withdrawalRows();
    expect(returns).toEqual([{ id: expect.any(String), amount: '7500000', to: sender.address }]);
    expect(envelope(await giveBack(s.app, txHash))).toMatchObject({ code: 0, result: { state: 'returning', returnId: returns[0]?.id } });
    expectRefused(await release(s.app, txHash, accounts.alice.address), ApiCode.notFound);
    await signInBound(s.app, accounts.alice, ctx.clock.now());
    expectRefused(await release(s.app, txHash, accounts.alice.address), ApiCode.alreadyDecided);

    // Signed and stored by one payer, which then stops as a crash stops it; another takes over and pays nothing twice.
    expect(await s.payer().round()).toMatchObject({ signed: 1 });
    const afterRestart = s.payer();
    await testChain.mine(CONFIRMATIONS);
    await settle(afterRestart);
    expect(await afterRestart.round()).toMatchObject({ signed: 0, posted: 0 });
    expect(await paidOnChain(s.payerAddress, sender.address)).toBe(parseUnits('7.5', testChain.decimals));
    const returned = (await list(s.app, { state: 'returned' })).result?.list;
    expect(returned).toEqual([expect.objectContaining({ txHash, state: 'returned', returnId: returns[0]?.id, returnTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })]);
    expect(await systemBalance(ctx.db, HELD)).toBe('0');
    const returnActs = (await audited()).filter((row) => row.before === 'held');
    expect(returnActs).toEqual([expect.objectContaining({ action: 'opsHeldTopUpReturn', after: 'returning' })]);
    expect([operators.ann.address, operators.ben.address]).toContain(returnActs[0]?.actor);
    // The sender signing in now finds nothing to release.
    const token = await signInBound(s.app, sender, ctx.clock.now());
    expect(await credit(s.app, token)).toBe('0');
    await expectSettledBooks(s.app);
    // Lost as a withdrawal's payment is (its block gone, as the payer's watch records it): reconcile names the sender.
    await markLost(ctx.db, returned?.[0]?.returnTxHash ?? '');
    expect(envelope(await s.app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: s.ann })).result).toMatchObject({
      ok: false,
      lostPayments: [{ withdrawalId: returns[0]?.id, address: sender.address, amount: '7.5', reason: 'reorganised' }],
    });
  });

  it('a return the chain fails (reverted) gives the amount back to held; the top-up is decided again, once', async () => {
    const s = await setup();
    const { sender, txHash } = await heldFrom('6');
    await s.watch();
    expect(envelope(await giveBack(s.app, txHash, s.ann))).toMatchObject({ code: 0, result: { state: 'returning' } });
    // Too little gas: the transfer reverts, and the payer voids the return at depth.
    const starved = s.payer({ gasLimit: 30_000n });
    expect(await starved.round()).toMatchObject({ signed: 1 });
    await testChain.mine(CONFIRMATIONS);
    expect(await starved.round()).toMatchObject({ voided: 1, posted: 0 });
    expect((await list(s.app)).result?.list).toEqual([expect.objectContaining({ txHash, state: 'held' })]);
    expect(await systemBalance(ctx.db, HELD)).toBe('6000000');
    await expectSettledBooks(s.app);
    // Its sender signing in now is not credited: only an operator decides it again, and not while the payer still
    // watches the failed payment (mined after all, it would pay twice); then once.
    const senderToken = await signInBound(s.app, sender, ctx.clock.now());
    expect(await credit(s.app, senderToken)).toBe('0');
    expectRefused(await giveBack(s.app, txHash, s.ben), ApiCode.requestInProgress);
    await testChain.mine(64);
    expect(envelope(await giveBack(s.app, txHash, s.ben))).toMatchObject({ code: 0, result: { state: 'returning' } });
    expect(envelope(await giveBack(s.app, txHash, s.ann))).toMatchObject({ code: 0, result: { state: 'returning' } });
    await signInBound(s.app, accounts.alice, ctx.clock.now());
    expectRefused(await release(s.app, txHash, accounts.alice.address, s.ann), ApiCode.alreadyDecided);
    await settle(s.payer());
    expect(await paidOnChain(s.payerAddress, sender.address)).toBe(parseUnits('6', testChain.decimals));
    expect((await withdrawalRows()).map((row) => row.amount)).toEqual(['6000000', '6000000']);
    expect((await list(s.app, { state: 'returned' })).result?.list).toEqual([expect.objectContaining({ txHash })]);
    expect(await systemBalance(ctx.db, HELD)).toBe('0');
    await expectSettledBooks(s.app);
  });

  it('a release racing the sender\'s first sign-in credits the top-up once: one of them wins', async () => {
    const s = await setup();
    const dave = await signInBound(s.app, accounts.dave, ctx.clock.now());
    // Released to Dave, twice, and once to the sender itself (a member only once its sign-in has made it one).
    const races = [{ ...(await heldFrom('3')), toSender: false }, { ...(await heldFrom('5')), toSender: false }, { ...(await heldFrom('2')), toSender: true }];
    await s.watch();
    let daveExpected = 0n;
    for (const { sender, txHash, toSender } of races) {
      // The operator releases it while its sender signs in for the first time (on another instance, if any).
      const [operator, signedIn] = await Promise.all([
        release(s.app, txHash, toSender ? sender.address : accounts.dave.address, s.ann),
        signIn(s.other, sender, ctx.clock.now(), { inviteCode: 'DEMO2026' }),
      ]);
      expect([ApiCode.ok, ApiCode.alreadyDecided, ApiCode.requestInProgress, ...(toSender ? [ApiCode.notFound] : [])]).toContain(envelope(operator).code);
      // A sign-in that lost the race left it to the watcher's next round, which credits nothing more.
      await s.watch();
      const [view] = (await list(s.app, { state: 'released' })).result?.list.filter((item) => item.txHash === txHash) ?? [];
      expect([sender.address, ...(toSender ? [] : [accounts.dave.address])]).toContain(view?.releasedTo);
      expect(await credit(s.app, signedIn.auth)).toBe(view?.releasedTo === sender.address ? view.amount : '0');
      if (view?.releasedTo === accounts.dave.address) daveExpected += toMinor(view.amount);
    }
    expect(toMinor((await credit(s.app, dave)) ?? '0')).toBe(daveExpected);
    expect((await list(s.app, { state: 'released' })).result?.list).toHaveLength(3);
    expect(await systemBalance(ctx.db, HELD)).toBe('0');
    await expectSettledBooks(s.app);
  });
});
