/**
 * The restore drill (docs/operations.md, "Backups and restore";
 * docs/decisions/0033-the-chain-is-the-payers-journal.md), on every database target and a real node: a backup taken
 * while withdrawals are approved and unsent (PGlite's online snapshot, or pg_dump), then those paid, more withdrawn and
 * paid and a member's top-up credited; the backup restored into a new database and a server started on it, as an
 * operator restoring last night's backup would. Nothing is paid twice on chain: payouts halt (the chain shows nonces
 * the restored database does not know), reconcile says so, the recovery from the chain records the payments of the
 * approved withdrawals and lists the two the backup never saw, finance debits them from the members they paid, and
 * payouts resume, the books and reconcile right.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { parseAbiItem, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { createPayer, type Payer } from '../../server/chain/payer';
import { readTransferData } from '../../server/chain/payer/paymentTag';
import { createTopUpWatcher } from '../../server/chain/topUpWatcher';
import { backupToFile, restoreFromFile } from '../../server/db/backup';
import { openDatabase, queryRows, type Database, type Db } from '../../server/db/client';
import { sharedTestChain, type TestChain } from './support/testChain';
import { openScratchPostgres, postgresUrl } from './support/databases';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant, treasuryHeaders, withdraw } from './support/testLedger';
import { operatorWithSession, resumePayouts } from './support/financeDeskCalls';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

const CONFIRMATIONS = 3;
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describeWithDatabases('the restore drill: a restored backup never pays twice', (ctx) => {
  const shared = sharedTestChain({ confirmations: CONFIRMATIONS });
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(() => shared.stop());

  const credit = async (app: FastifyInstance, token: string) =>
    envelope<{ creditBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).result?.creditBalance;

  const withdrawn = async (app: FastifyInstance, token: string, amount: string) => {
    const body = envelope<{ id: string; status: string }>(await withdraw(app, token, { amount, requestId: randomUUID() }));
    expect(body).toMatchObject({ code: 0, result: { status: 'approved' } });
    return body.result?.id ?? '';
  };

  interface Reconciled {
    ok: boolean;
    difference: string;
    journal: { chainNonce: string; knownNonce: string; halted: boolean } | null;
    pause: { id: string } | null;
    unknownPayments: { hash: string; kind: string; to: string | null; member: string | null; amount: string; withdrawalId: string | null }[];
    lostPayments: unknown[];
  }
  const reconcileOf = async (app: FastifyInstance) => envelope<Reconciled>(await app.inject({ method: 'GET', url: '/api/admin/reconcile', headers: treasuryHeaders() })).result;

  const openCount = async (db: Db) =>
    (await queryRows(db, sql`SELECT count(*)::int AS n FROM ledger_pending WHERE stage IN ('sent', 'approved')`, z.object({ n: z.number() })))[0]?.n;

  /** Rounds (mining a block after each) until nothing is approved or sent, as the timer would. */
  async function settle(testChain: TestChain, db: Db, payer: Payer): Promise<void> {
    for (let attempt = 0; attempt < 30; attempt++) {
      await payer.round();
      if ((await openCount(db)) === 0) return;
      await testChain.mine(1);
    }
    throw new Error('payments did not settle in 30 rounds');
  }

  /** The backup restored into a new database of the same kind, closed after the test. */
  async function restored(file: string): Promise<{ database: Database; ms: number }> {
    if (ctx.target === 'postgres' && postgresUrl) {
      const scratch = await openScratchPostgres(postgresUrl);
      cleanups.push(() => scratch.close());
      const { ms } = await restoreFromFile(file, { url: scratch.url });
      return { database: scratch, ms };
    }
    const dataDir = await mkdtemp(path.join(tmpdir(), 'md-restore-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const restore = await restoreFromFile(file, { dataDir });
    expect(restore).toMatchObject({ format: 'pglite', movedAside: null });
    const database = await openDatabase({ dataDir, thread: false });
    cleanups.push(() => database.close());
    return { database, ms: restore.ms };
  }

  it('halts payouts after the restore, recovers from the chain, settles what it never saw, and pays each once', async () => {
    const testChain = await shared.next();
    const payerKey = generatePrivateKey();
    const payerAddress = privateKeyToAccount(payerKey).address;
    await testChain.fund(payerAddress, '1000');
    const options = { chain: testChain.chain, autoApproveMax: toMinor('100'), payer: { key: payerKey, holder: 'app' }, topUpWatcher: { startBlock: testChain.deployBlock } };
    const app = await ctx.app(options);
    const people = [accounts.alice, accounts.bob, accounts.carol, accounts.dave];
    const tokens: string[] = [];
    for (const person of people) {
      tokens.push(await signInBound(app, person, ctx.clock.now()));
      expect(envelope(await grant(app, { address: person.address, amount: '100', requestId: randomUUID() })).code).toBe(0);
    }
    await testChain.fund(testChain.treasury, '400');
    const [alice = '', bob = '', carol = '', dave = ''] = tokens;
    for (const token of tokens) await withdrawn(app, token, '20');

    // The backup, taken while the four are approved and unsent, with the server running.
    const folder = await mkdtemp(path.join(tmpdir(), 'md-backup-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const file = path.join(folder, 'backup');
    const backup = await backupToFile(ctx.target === 'postgres' ? { url: (ctx.database as Partial<{ url: string }>).url } : { database: ctx.database }, file);
    expect(backup.bytes).toBeGreaterThan(0);

    // After it: the four paid, alice and bob withdraw again and are paid, carol tops up and is credited.
    const payer = createPayer({ db: ctx.db, chain: testChain.chain, key: payerKey, holder: 'app', now: ctx.clock.now });
    await settle(testChain, ctx.db, payer);
    ctx.clock.advance(60_000);
    await withdrawn(app, alice, '10');
    await withdrawn(app, bob, '10');
    await settle(testChain, ctx.db, payer);
    await testChain.fund(accounts.carol.address, '30');
    const topUp = await testChain.transfer(accounts.carol, '30');
    await testChain.mine(CONFIRMATIONS);
    const watcher = createTopUpWatcher({ db: ctx.db, chain: testChain.chain, now: ctx.clock.now, startBlock: testChain.deployBlock });
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    expect([await credit(app, alice), await credit(app, bob), await credit(app, carol), await credit(app, dave)]).toEqual(['70', '70', '110', '80']);

    // The restore, and a server on it.
    ctx.clock.advance(60_000);
    const restoredAt = performance.now();
    const { database, ms: restoreMs } = await restored(file);
    const appB = await ctx.app({ ...options, db: database.db });
    const payerB = createPayer({ db: database.db, chain: testChain.chain, key: payerKey, holder: 'app', now: ctx.clock.now });
    expect(await payerB.round()).toMatchObject({ signed: 0, halted: true });
    expect(await reconcileOf(appB)).toMatchObject({ ok: false, journal: { chainNonce: '6', knownNonce: '0', halted: true } });
    // A withdrawal made after the restore waits too: its id is one the lost database gave already.
    ctx.clock.advance(1_000);
    const daveAfter = await withdrawn(appB, dave, '10');
    expect(await payerB.round()).toMatchObject({ signed: 0, halted: true });

    // The recovery: the four approved at the backup recorded as sent, the two the backup never saw listed.
    const recovered = envelope<{ recordedPayments: number; unknownPayments: number }>(await appB.inject({ method: 'POST', url: '/api/admin/payer/recover', headers: treasuryHeaders(), payload: { requestId: randomUUID() } }));
    expect(recovered).toMatchObject({ code: 0, result: { fromNonce: '0', toNonce: '6', recordedPayments: 4, fillers: 0, unknownPayments: 2, stoppedAt: null, knownNonce: '6' } });
    const afterRecovery = await reconcileOf(appB);
    expect(afterRecovery?.ok).toBe(false);
    expect(afterRecovery?.unknownPayments.map((entry) => [entry.kind, entry.member, entry.amount, entry.withdrawalId])).toEqual([
      ['unknownWithdrawal', accounts.alice.address, '9', daveAfter],
      ['unknownWithdrawal', accounts.bob.address, '9', String(BigInt(daveAfter) + 1n)],
    ]);
    expect(await payerB.round()).toMatchObject({ signed: 0, halted: true });
    for (const entry of afterRecovery?.unknownPayments ?? []) {
      const settled = envelope(
        await appB.inject({
          method: 'POST',
          url: '/api/admin/unknownPayments/settle',
          headers: treasuryHeaders(),
          payload: { hash: entry.hash, settlement: 'debit', reason: 'withdrawal paid after the backup', requestId: randomUUID() },
        }),
      );
      expect(settled).toMatchObject({ code: 0, result: { payment: { settlement: 'debit' }, waitsForSecondApproval: false } });
    }
    // Settled, payouts stay paused on what the recovery found until two finance operators resume them.
    expect(await payerB.round()).toMatchObject({ signed: 0, halted: false, paused: true });
    const pauseId = (await reconcileOf(appB))?.pause?.id ?? '';
    const [ann, ben] = [await operatorWithSession(database.db, ['finance'], ctx.clock.now()), await operatorWithSession(database.db, ['finance'], ctx.clock.now())];
    expect(envelope(await resumePayouts(appB, ann, pauseId)).result).toMatchObject({ waitsForSecondApproval: true });
    expect(envelope(await resumePayouts(appB, ben, pauseId)).result).toMatchObject({ resumed: true });

    // Payouts resume: the four post from their recorded payments, dave's new one is paid once; carol's top-up is
    // credited once more from the backup's cursor, as the chain shows it.
    await settle(testChain, database.db, payerB);
    const watcherB = createTopUpWatcher({ db: database.db, chain: testChain.chain, now: ctx.clock.now, startBlock: testChain.deployBlock });
    expect(await watcherB.runOnce()).toMatchObject({ credited: 1 });
    expect([await credit(appB, alice), await credit(appB, bob), await credit(appB, carol), await credit(appB, dave)]).toEqual(['71', '71', '110', '70']);
    await expectBooksBalanced(database.db);
    expect(await reconcileOf(appB)).toMatchObject({ ok: true, journal: { halted: false }, unknownPayments: [], lostPayments: [] });

    // On chain: seven payments, each naming a different withdrawal; nobody received anything twice.
    const logs = await testChain.chain.client.getLogs({ address: testChain.token, event: transferEvent, args: { from: payerAddress }, fromBlock: 0n, toBlock: 'latest' });
    expect(logs).toHaveLength(7);
    const named = await Promise.all(logs.map(async (log) => readTransferData((await testChain.chain.client.getTransaction({ hash: log.transactionHash })).input)));
    expect(new Set(named.map((read) => `${read?.withdrawalId}:${read?.fingerprint}`)).size).toBe(7);
    const received = new Map<Address, bigint>();
    for (const log of logs) received.set(log.args.to as Address, (received.get(log.args.to as Address) ?? 0n) + (log.args.value ?? 0n));
    const units = (tokens: string) => BigInt(Math.round(Number(tokens) * 1e6));
    expect(Object.fromEntries(received)).toEqual({
      [accounts.alice.address]: units('28'),
      [accounts.bob.address]: units('28'),
      [accounts.carol.address]: units('19'),
      [accounts.dave.address]: units('28'),
    });
    expect(topUp).toMatch(/^0x/);
    console.log(
      `restore drill [${ctx.target}]: backup ${backup.bytes} bytes in ${backup.ms} ms; restore ${restoreMs} ms, to payouts resumed ${Math.round(performance.now() - restoredAt)} ms ` +
        `(the recovery recorded ${recovered.result?.recordedPayments} payments and found ${recovered.result?.unknownPayments} unknown); payments on chain ${logs.length}, withdrawals they name ${new Set(named.map((read) => `${read?.withdrawalId}:${read?.fingerprint}`)).size}`,
    );
  });
});
