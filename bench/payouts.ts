/**
 * Money out: how fast the payer pays a queue of approved withdrawals on a real node, and the gas a
 * payment costs. A fresh anvil gets the development token (tests/server/support/testChain.ts) and a funded hot wallet;
 * 20 signed-in members are granted credit and make 1,000 withdrawals of different amounts through the ledger engine,
 * each then approved (as an operator does). With the node's automine off, one payer round signs, stores and broadcasts
 * the queue: that is the figure (goal >= 200 payments/s). Then blocks are mined and rounds post them at depth; the
 * receipts give the gas per payment (the floor is one ERC-20 transfer: about 35,000 to a holder, 52,000 to a new one).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { toMinor } from '../api-schema/amount';
import { createPayer } from '../server/chain/payer';
import { queryRows } from '../server/db/client';
import { systemAccountId } from '../server/ledger/accounts';
import { postRequests } from '../server/ledger/engine';
import { memberIdByAddress } from '../server/ledger/queries';
import { approvalRequest, runWithdrawalBatch, type WithdrawalRequest } from '../server/ledger/withdrawals';
import { startTestChain } from '../tests/server/support/testChain';
import { signInBoundMember, type BenchServer } from './appServer';
import { atLeast, detail, emit, ms, rate } from './report';

const MEMBERS = 20;
const PAYMENTS = 1_000;
const CONFIRMATIONS = 3;
const GOAL = 200;

/**
 * Runs the payout figures against a bench server's database.
 *
 * @param server - the bench server (its database and app)
 * @param storage - which database, for the figure names
 * @returns when printed
 * @example
 * await benchPayouts(server, 'pglite');
 */
export async function benchPayouts(server: BenchServer, storage: 'pglite' | 'postgres'): Promise<void> {
  const testChain = await startTestChain({ decimals: 6, confirmations: CONFIRMATIONS });
  try {
    const payerKey = generatePrivateKey();
    await testChain.fund(privateKeyToAccount(payerKey).address, '10000000');
    const memberIds: number[] = [];
    for (let index = 0; index < MEMBERS; index++) {
      const authToken = await signInBoundMember(server.site, 'DEMO2026');
      const me = await server.app.inject({ method: 'GET', url: '/api/member/meInfo', headers: { authorization: authToken } });
      const address = z.object({ result: z.object({ address: z.string() }) }).parse(me.json()).result.address;
      memberIds.push((await memberIdByAddress(server.db, address)) ?? 0);
    }
    const now = new Date();
    await postRequests(
      server.db,
      memberIds.map((memberId) => ({ now, legs: [{ asset: 'CREDIT' as const, type: 'reward' as const, from: { system: systemAccountId('CREDIT', 'issuance') }, to: { member: memberId }, amount: toMinor('5000') }] })),
    );
    const requests: WithdrawalRequest[] = Array.from({ length: PAYMENTS }, (_, index) => ({
      memberId: memberIds[index % MEMBERS] ?? 0,
      amount: toMinor('10') + BigInt(index % 97) * 10_000n,
      requestId: randomUUID(),
      now,
    }));
    for (let offset = 0; offset < requests.length; offset += 64) {
      const outcomes = await runWithdrawalBatch(server.db, requests.slice(offset, offset + 64));
      const refused = outcomes.find((outcome) => outcome.code !== 0);
      if (refused) throw new Error(`a bench withdrawal was refused: ${refused.code}`);
      const approvals = await postRequests(server.db, outcomes.map((outcome) => approvalRequest(BigInt(z.object({ id: z.string() }).parse(outcome.result).id), now)));
      if (approvals.some((approval) => approval.code !== 0)) throw new Error('a bench withdrawal was not approved');
    }

    await testChain.rpc('evm_setAutomine', [false]);
    const payer = createPayer({ db: server.db, chain: testChain.chain, key: payerKey, holder: 'bench', now: () => new Date(), batch: PAYMENTS });
    const started = performance.now();
    const round = await payer.round();
    const seconds = (performance.now() - started) / 1000;
    if (round.signed !== PAYMENTS) throw new Error(`the payer signed ${round.signed} of ${PAYMENTS} (waiting: ${round.waiting})`);
    emit({
      name: `payouts.${storage}.signedAndBroadcast`,
      value: rate(PAYMENTS / seconds, 'payment'),
      floor: 'n/a',
      target: `goal >= ${GOAL} payment/s`,
      verdict: atLeast(PAYMENTS / seconds, GOAL),
      note: `${PAYMENTS} approved withdrawals of ${MEMBERS} members, one round in ${seconds.toFixed(2)} s (sign, store as sent, broadcast)`,
    });

    // Mined (the block gas limit takes a few hundred a block), then posted at depth.
    const minedStarted = performance.now();
    let posted = 0;
    for (let attempt = 0; attempt < 20 && posted < PAYMENTS; attempt++) {
      await testChain.mine(1);
      posted += (await payer.round()).posted;
    }
    if (posted !== PAYMENTS) throw new Error(`posted ${posted} of ${PAYMENTS}`);
    detail(`payouts.${storage}: mined and posted at depth ${CONFIRMATIONS} in ${ms(performance.now() - minedStarted)}`);
    const [gas] = await queryRows(
      server.db,
      sql`SELECT avg(gas_used)::float8 AS average, min(gas_used)::float8 AS least, max(gas_used)::float8 AS most FROM payments WHERE receipt_status = 1 AND payer = ${payer.address}`,
      z.object({ average: z.number(), least: z.number(), most: z.number() }),
    );
    emit({
      name: `payouts.${storage}.gasPerPayment`,
      value: `${Math.round(gas?.average ?? 0)} gas`,
      floor: 'one ERC-20 transfer',
      target: '-',
      verdict: 'INFO',
      note: `min ${gas?.least} (to a holder), max ${gas?.most} (to a new holder): one transfer each, no batch contract`,
    });
  } finally {
    await testChain.stop();
  }
}
