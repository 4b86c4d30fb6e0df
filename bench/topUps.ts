/**
 * Money in: how fast the top-up watcher credits a backlog, on a real node. A fresh anvil gets the
 * development token (tests/server/support/testChain.ts) and 10,000 token transfers to the treasury from 20 signed-in members, 50 to a block (automine off,
 * the senders impersonated so the node signs), then CONFIRMATIONS blocks on top; the watcher's rounds then credit the
 * whole backlog through the ledger engine. Also: one top-up, from the block that gives it its depth to the topUp call
 * that answers `credited`, in blocks and milliseconds.
 */
import { sql } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, numberToHex, type Address, type Hex } from 'viem';
import { z } from 'zod';
import { createTopUpWatcher } from '../server/chain/topUpWatcher';
import { queryRows } from '../server/db/client';
import { startTestChain } from '../tests/server/support/testChain';
import { signInBoundMember, type BenchServer } from './appServer';
import { atLeast, atMost, detail, emit, ms, rate } from './report';

const MEMBERS = 20;
const LOGS = 10_000;
const PER_BLOCK = 50;
const CONFIRMATIONS = 3;
const GOALS = { pglite: 2_000, postgres: 3_500 } as const;

/**
 * Runs the top-up figures against a bench server's database.
 *
 * @param server - the bench server (its database and app)
 * @param storage - which database, for the figure names and goals
 * @returns when printed
 * @example
 * await benchTopUps(server, 'pglite');
 */
export async function benchTopUps(server: BenchServer, storage: 'pglite' | 'postgres'): Promise<void> {
  // The tests' chain (anvil, the token, a treasury, the node's own methods), as the server suites start it.
  const testChain = await startTestChain({ decimals: 6, confirmations: CONFIRMATIONS });
  try {
    const { chain, token, treasury, deployBlock, rpc } = testChain;
    /** Many calls in one JSON-RPC batch (testChain.rpc sends one). */
    const batch = async (calls: { method: string; params: unknown[] }[]) => {
      const response = await fetch(testChain.node.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(calls.map((call, id) => ({ jsonrpc: '2.0', id, ...call }))),
      });
      const answers = (await response.json()) as { error?: { message: string } }[];
      const failed = answers.find((answer) => answer.error);
      if (failed?.error) throw new Error(failed.error.message);
    };

    const senders: Address[] = [];
    for (let index = 0; index < MEMBERS; index++) {
      const authToken = await signInBoundMember(server.site, 'DEMO2026');
      const me = await server.app.inject({ method: 'GET', url: '/api/member/meInfo', headers: { authorization: authToken } });
      senders.push(z.object({ result: z.object({ address: z.string() }) }).parse(me.json()).result.address as Address);
    }
    for (const address of senders) await testChain.fund(address, '1000000');
    const transferData = (to: Address, amount: bigint): Hex => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
    await batch(senders.map((address) => ({ method: 'anvil_impersonateAccount', params: [address] })));
    await rpc('evm_setAutomine', [false]);
    const nonces = new Map<Address, number>(senders.map((address) => [address, 0]));
    const nextNonce = (address: Address) => {
      const nonce = nonces.get(address) ?? 0;
      nonces.set(address, nonce + 1);
      return numberToHex(nonce);
    };
    const fillStarted = performance.now();
    for (let sent = 0, block = 0; sent < LOGS; block++) {
      const calls = Array.from({ length: Math.min(PER_BLOCK, LOGS - sent) }, (_, index) => {
        const from = senders[(sent + index) % MEMBERS] as Address;
        return {
          method: 'eth_sendTransaction',
          params: [{ from, to: token, data: transferData(treasury, BigInt(1_000_000 + ((sent + index) % 997))), gas: numberToHex(100_000), nonce: nextNonce(from) }],
        };
      });
      await batch(calls);
      sent += calls.length;
      await rpc('anvil_mine', ['0x1']);
    }
    await rpc('anvil_mine', [numberToHex(CONFIRMATIONS)]);
    detail(`topups.${storage}: ${LOGS} transfers in ${Math.ceil(LOGS / PER_BLOCK)} blocks put on the node in ${ms(performance.now() - fillStarted)}`);

    const now = () => new Date();
    const watcher = createTopUpWatcher({ db: server.db, chain, now, startBlock: deployBlock });
    const started = performance.now();
    let credited = 0;
    let rounds = 0;
    for (; rounds < 50 && credited < LOGS; rounds++) credited += (await watcher.runOnce()).credited;
    const seconds = (performance.now() - started) / 1000;
    const [row] = await queryRows(
      server.db,
      sql`SELECT count(*)::int AS n FROM top_ups WHERE chain_id = ${chain.settings.chainId}::int AND member_id IS NOT NULL`,
      z.object({ n: z.number() }),
    );
    if (credited !== LOGS || row?.n !== LOGS) throw new Error(`credited ${credited} (rows ${row?.n}) of ${LOGS}`);
    const goal = GOALS[storage];
    emit({
      name: `topups.${storage}.backlog`,
      value: rate(LOGS / seconds, 'log'),
      floor: 'n/a',
      target: `goal >= ${goal} log/s`,
      verdict: atLeast(LOGS / seconds, goal),
      note: `${LOGS} logs, ${PER_BLOCK} a block, ${MEMBERS} members, ${rounds} rounds in ${seconds.toFixed(2)} s`,
    });

    // One top-up: the blocks after its depth before a topUp call answers credited.
    await rpc('evm_setAutomine', [true]);
    const first = senders[0] as Address;
    const hash = (await rpc('eth_sendTransaction', [{ from: first, to: token, data: transferData(treasury, 5_000_000n), nonce: nextNonce(first) }])) as Hex;
    await rpc('anvil_mine', [numberToHex(CONFIRMATIONS)]);
    const depthReached = performance.now();
    const headAtDepth = await chain.client.getBlockNumber({ cacheTime: 0 });
    // What topUp does once the transaction is deep enough: one round (the bench server has no chain of its own).
    const single = await createTopUpWatcher({ db: server.db, chain, now, startBlock: deployBlock }).runOnce();
    const blocksLate = Number((await chain.client.getBlockNumber({ cacheTime: 0 })) - headAtDepth);
    emit({
      name: `topups.${storage}.single`,
      value: `${blocksLate} blocks after its depth`,
      floor: 'n/a',
      target: 'goal <= 1 block',
      verdict: single.credited === 1 ? atMost(blocksLate, 1) : 'MISS',
      note: `credited ${single.credited} in ${ms(performance.now() - depthReached)} (${hash.slice(0, 10)}…)`,
    });
  } finally {
    await testChain.stop();
  }
}
