/**
 * Operators' approvals racing members' new withdrawals and the payer, on a real chain: two operators
 * approve the same withdrawals at once (on two server instances on PostgreSQL) while members keep withdrawing and
 * the payer runs its rounds. Each withdrawal is approved once and paid once: what each member received on chain from
 * the hot wallet is their posted withdrawals' net amounts, no withdrawal has two mined payments, the books balance.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { parseAbiItem, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { tokenUnitsOf } from '../../server/chain/chainReads';
import { createPayer } from '../../server/chain/payer';
import { queryRows } from '../../server/db/client';
import { startTestChain, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant, withdraw } from './support/testLedger';
import { approve, operatorWithSession } from './support/financeDeskCalls';
import { accounts, envelope, signInBound } from './support/memberSignIn';

const CONFIRMATIONS = 2;
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describeWithDatabases('operators: approvals racing withdrawals and the payer', (ctx) => {
  const started: TestChain[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((testChain) => testChain.stop()));
  });

  it('approves each withdrawal once and the payer pays it once', async () => {
    const testChain = await startTestChain({ confirmations: CONFIRMATIONS });
    started.push(testChain);
    const payerKey = generatePrivateKey();
    const payerAddress = privateKeyToAccount(payerKey).address;
    await testChain.fund(payerAddress, '2000');
    const options = { chain: testChain.chain, autoApproveMax: 0n, approvalQuorumAbove: toMinor('100'), payer: { key: payerKey, holder: 'app' } };
    const instances = await ctx.instances(options);
    const app = instances[0] as FastifyInstance;
    const other = instances.at(-1) as FastifyInstance;
    const tokens = new Map<string, string>();
    for (const account of [accounts.alice, accounts.bob]) {
      tokens.set(account.address, await signInBound(app, account, ctx.clock.now()));
      expect(envelope(await grant(app, { address: account.address, amount: '1000', requestId: randomUUID() })).code).toBe(0);
    }
    await testChain.fund(testChain.treasury, '2000');
    const ann = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const payer = createPayer({ db: ctx.db, chain: testChain.chain, key: payerKey, holder: 'app', now: ctx.clock.now, stuckAfterMs: 60_000 });
    const withdrawn = async (address: string, amount: string) => {
      const body = envelope<{ id: string }>(await withdraw(app, tokens.get(address) ?? '', { amount, requestId: randomUUID() }));
      expect(body.code).toBe(0);
      return body.result?.id ?? '';
    };
    const pendingIds = async () =>
      (await queryRows(ctx.db, sql`SELECT id::text FROM ledger_pending WHERE stage = 'held' ORDER BY id`, z.object({ id: z.string() }))).map((row) => row.id);

    const all: string[] = [];
    for (let round = 0; round < 4; round++) {
      all.push(await withdrawn(accounts.alice.address, '150'), await withdrawn(accounts.bob.address, '40'));
      const pending = await pendingIds();
      // Both operators approve every pending withdrawal at once, while members withdraw and the payer pays.
      const [approvals] = await Promise.all([
        Promise.all(pending.flatMap((id) => [approve(app, ann, id), approve(other, ben, id)])),
        Promise.all([withdrawn(accounts.alice.address, '30'), withdrawn(accounts.bob.address, '120')]).then((ids) => all.push(...ids)),
        payer.round(),
      ]);
      // Each answer is 0: approved (by this call, the other operator's or before the payer sent it), or waiting.
      expect(approvals.map((answer) => envelope(answer).code).every((code) => code === 0)).toBe(true);
      await testChain.mine(1);
    }
    // The last ones, approved by both, then paid.
    for (const id of await pendingIds()) {
      expect(envelope(await approve(app, ann, id)).code).toBe(0);
      expect(envelope(await approve(other, ben, id)).code).toBe(0);
    }
    for (let attempt = 0; attempt < 30; attempt++) {
      await payer.round();
      const [open] = await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM ledger_pending WHERE stage IN ('held', 'approved', 'sent')`, z.object({ n: z.number() }));
      if (open?.n === 0) break;
      await testChain.mine(1);
    }
    const stages = await queryRows(ctx.db, sql`SELECT stage, count(*)::int AS n FROM ledger_pending d JOIN withdrawals w ON w.id = d.id GROUP BY 1`, z.object({ stage: z.string(), n: z.number() }));
    expect(stages).toEqual([{ stage: 'posted', n: all.length }]);
    // Every big withdrawal has exactly its two operators' approvals; a small one, one or two.
    const approvals = await queryRows(
      ctx.db,
      sql`SELECT w.amount::text, count(a.operator)::int AS n FROM withdrawals w LEFT JOIN withdrawal_approvals a ON a.withdrawal_id = w.id GROUP BY w.id`,
      z.object({ amount: z.string(), n: z.number() }),
    );
    for (const row of approvals) expect(BigInt(row.amount) > toMinor('100') ? [2] : [1, 2]).toContain(row.n);

    // Paid once: the hot wallet's transfers to each member are their posted net amounts; one mined payment each.
    await expectBooksBalanced(ctx.db);
    const logs = await testChain.chain.client.getLogs({ address: testChain.token, event: transferEvent, args: { from: payerAddress }, fromBlock: 0n, toBlock: 'latest' });
    const received = new Map<string, bigint>();
    for (const log of logs) received.set(log.args.to?.toLowerCase() ?? '', (received.get(log.args.to?.toLowerCase() ?? '') ?? 0n) + (log.args.value ?? 0n));
    const posted = await queryRows(
      ctx.db,
      sql`SELECT lower(m.address) AS address, sum(w.amount - w.fee)::text AS net FROM withdrawals w JOIN members m ON m.id = w.member_id
          JOIN ledger_pending d ON d.id = w.id WHERE d.stage = 'posted' GROUP BY 1 ORDER BY 1`,
      z.object({ address: z.string(), net: z.string() }),
    );
    expect(Object.fromEntries([...received].map(([address, value]) => [address, value.toString()]))).toEqual(
      Object.fromEntries(posted.map((row) => [row.address, tokenUnitsOf(BigInt(row.net), testChain.decimals).toString()])),
    );
    const attempts = await queryRows(ctx.db, sql`SELECT withdrawal_id::text AS id, hash FROM payments`, z.object({ id: z.string(), hash: z.string() }));
    const mined = new Map<string, number>();
    for (const attempt of attempts) {
      const receipt = await testChain.chain.client.getTransactionReceipt({ hash: attempt.hash as Hex }).catch(() => null);
      if (receipt) mined.set(attempt.id, (mined.get(attempt.id) ?? 0) + 1);
    }
    expect([...mined.values()].every((count) => count === 1)).toBe(true);
    expect(mined.size).toBe(all.length);
  });
});
