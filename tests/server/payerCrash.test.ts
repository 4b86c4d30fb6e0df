/**
 * Withdrawals paid on chain across kill -9 of the server at each of the payer's steps: `server/main.ts` as
 * `npm start` runs it, with its development chain (anvil, a block a second, 2 confirmations) and its hot wallet, on
 * PGlite in a temp DATA_DIR and on PostgreSQL when the run has it, both at once. PAYER_FAULT_AT makes the process
 * kill itself (SIGKILL) when the payer reaches the step: after signing (before the commit), after storing (before the
 * broadcast), after broadcasting, after storing a receipt, before posting. Each start withdraws once more; the last
 * start has no fault. Afterwards every withdrawal is paid exactly once on chain, its record says paid with its hash,
 * the books balance and reconcile agrees. On PostgreSQL two instances then run the payer at once on one database.
 */
import { randomUUID } from 'node:crypto';
import { createPublicClient, erc20Abi, http, parseAbiItem, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect, vi } from 'vitest';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { freePort } from '../../server/chain/anvil';
import { DEV_PAYER_KEY } from '../../server/chain/devChain';
import { PAYER_STEPS, type PayerStep } from '../../server/chain/payer';

import { apiCaller, describeOnEveryStorage, mainStarter, prepareMainRun, signInOverHttp, treasuryHeadersOverHttp, type Cleanup, type MainStorage } from './support/mainProcess';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const payer = privateKeyToAccount(DEV_PAYER_KEY).address;

describeOnEveryStorage('withdrawals paid across a kill -9 of the server', 'pays each withdrawal once when the server is killed at every step of the payer and started again ($name)', 300_000, payAcrossKills);

async function payAcrossKills(storage: MainStorage, cleanup: Cleanup): Promise<void> {
  const { name } = storage;
  const { env, port } = await prepareMainRun(storage, cleanup);
  const { start, running } = mainStarter(cleanup);
  const base = `http://127.0.0.1:${port}`;
  const call = apiCaller(base);

  // The first start dies at `signed` once there is a withdrawal to sign: the member signs in and is granted first.
  const steps: readonly PayerStep[] = PAYER_STEPS;
  const first = await start({ ...env, PAYER_FAULT_AT: steps[0] ?? 'signed' });
  // On the storage the suite names, not on another suite's database.
  expect(first.output()).toContain(storage.banner);
  const param = await call<{ chainId: number; chain: { rpcUrls: string[] }; token: { address: Address; decimals: number } }>('/api/dapp/dappParam');
  const member = await signInOverHttp(base, param.chainId);
  const treasury = await treasuryHeadersOverHttp(base);
  const grant = await call<{ id: string }>('/api/admin/grant', {
    method: 'POST',
    headers: { ...treasury, 'content-type': 'application/json' },
    body: JSON.stringify({ address: member.address, asset: 'CREDIT', amount: '500', requestId: randomUUID() }),
  });
  expect(grant.id).toBeTruthy();
  const withdraw = (amount: string, requestId: string = randomUUID()) =>
    call<{ id: string; status: string }>('/api/member/withdrawCredit', {
      method: 'POST',
      headers: { authorization: member.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ amount, requestId }),
    });

  // Each start dies at its step: a withdrawal made after the start gives the first three steps something to do; the
  // receipt and the post come from the payments already sent.
  // A withdrawal the kill cut off is sent again with its request id after the next start (at most once).
  const amounts: string[] = [];
  const unanswered: { amount: string; requestId: string }[] = [];
  const withdrawOnce = async (amount: string, requestId: string) => {
    try {
      expect(await withdraw(amount, requestId)).toMatchObject({ status: 'approved' });
    } catch (error) {
      if (error instanceof Error && error.name === 'AssertionError') throw error;
      unanswered.push({ amount, requestId });
    }
  };
  for (const [index, step] of steps.entries()) {
    const server = index === 0 ? first : await start({ ...env, PAYER_FAULT_AT: step });
    for (const { amount, requestId } of unanswered.splice(0)) await withdrawOnce(amount, requestId);
    const amount = `${20 + index}.5`;
    amounts.push(amount);
    await withdrawOnce(amount, randomUUID());
    // It kills itself at the step (SIGKILL), nothing else ends it.
    const ended = await Promise.race([server.exited().then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 120_000))]);
    expect({ step, ended, signal: server.child.signalCode, exitCode: server.child.exitCode }, server.output()).toEqual({ step, ended: true, signal: 'SIGKILL', exitCode: null });
  }
  // The last start: no fault. One more withdrawal, and everything is paid.
  await start(env);
  for (const { amount, requestId } of unanswered.splice(0)) await withdrawOnce(amount, requestId);
  amounts.push('30');
  await withdrawOnce('30', randomUUID());
  expect(unanswered).toEqual([]);
  const records = async () =>
    (await call<{ list: { type: string; amount: string; status: string; txHash?: string }[] }>('/api/member/creditRecord?pageSize=50', { headers: { authorization: member.auth } })).list.filter(
      (record) => record.type === 'withdraw',
    );
  await vi.waitFor(async () => expect((await records()).map((record) => record.status)).toEqual(amounts.map(() => 'done')), { timeout: 90_000, interval: 250 });

  // Exactly once on chain: one Transfer from the hot wallet to the member per withdrawal, of its net amount.
  const client = createPublicClient({ transport: http(param.chain.rpcUrls[0]) });
  const logs = await client.getLogs({ address: param.token.address, event: transferEvent, args: { from: payer, to: member.address }, fromBlock: 0n, toBlock: 'latest' });
  const scale = 10n ** BigInt(param.token.decimals - 6);
  const fee = toMinor((await call<{ withdrawFee: string }>('/api/dapp/dappParam')).withdrawFee);
  // On a mismatch: each record's payment as the chain sees it, and what the servers said.
  const diagnosis = async () => {
    const found = await Promise.all((await records()).map(async (record) => `${record.amount} ${record.txHash} ${await client.getTransactionReceipt({ hash: record.txHash as `0x${string}` }).then((r) => `block ${r.blockNumber} ${r.status}`, (e: Error) => e.name)}`));
    return [`head ${await client.getBlockNumber()}`, ...found, ...running.map((server) => server.output())].join('\n');
  };
  if (logs.length !== amounts.length) console.error(await diagnosis());
  expect(logs.map((log) => formatMinor((log.args.value ?? 0n) / scale)).sort()).toEqual(amounts.map((amount) => formatMinor(toMinor(amount) - fee)).sort());
  // Each record's hash is its payment's.
  const hashes = new Set(logs.map((log) => log.transactionHash));
  expect((await records()).every((record) => record.txHash !== undefined && hashes.has(record.txHash as `0x${string}`))).toBe(true);
  const onChain = await client.readContract({ address: param.token.address, abi: erc20Abi, functionName: 'balanceOf', args: [member.address] });
  const ledger = await call<{ assets: { CREDIT: { total: string } }; negativeAccounts: number }>('/api/admin/ledger', { headers: treasury });
  expect(ledger).toMatchObject({ assets: { CREDIT: { total: '0' } }, negativeAccounts: 0 });
  const reconciled = await call<{ pendingPayments: string; payer: { approved: string; lost: string } }>('/api/admin/reconcile', { headers: treasury });
  expect(reconciled).toMatchObject({ pendingPayments: '0', payer: { approved: '0', lost: '0' } });
  console.log(`payer crash (${name}): killed at ${steps.join(', ')}; ${logs.length} payments, ${formatMinor(onChain / scale)} received, each once`);

  if (name !== 'PostgreSQL') return;
  // Two instances on one PostgreSQL database, both running the payer: one holds the lease; each paid once.
  await start({ ...env, PORT: String(await freePort()) });
  const more = ['11', '12', '13', '14'];
  for (const amount of more) expect(await withdraw(amount)).toMatchObject({ status: 'approved' });
  await vi.waitFor(async () => expect((await records()).filter((record) => record.status === 'done').length).toBe(amounts.length + more.length), { timeout: 90_000, interval: 250 });
  const after = await client.getLogs({ address: param.token.address, event: transferEvent, args: { from: payer, to: member.address }, fromBlock: 0n, toBlock: 'latest' });
  expect(after.length).toBe(amounts.length + more.length);
}
