/**
 * The server killed (kill -9) while it credits top-ups, and started again: `server/main.ts` as `npm start`
 * runs it, with its development chain (anvil, four blocks a second here) and PGlite in a temp DATA_DIR, or PostgreSQL
 * when the run has it. A member sends 20 top-ups of different amounts; the server is killed while they confirm and
 * are credited, and started again on the same DATA_DIR (the chain it left running is used again) while the last ones
 * are still being sent. Afterwards the member's credit is exactly what they sent, nothing twice, and the books balance.
 */
import { createWalletClient, defineChain, erc20Abi, http, parseEther, parseUnits, publicActions, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect, vi } from 'vitest';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { DEV_DEPLOYER_KEY } from '../../server/chain/devChain';

import { apiCaller, describeOnEveryStorage, prepareMainRun, signInOverHttp, startMain, treasuryHeadersOverHttp, type Cleanup, type MainStorage } from './support/mainProcess';

describeOnEveryStorage('top-ups across a kill -9 of the server', 'credits each of 20 top-ups once when the server is killed while crediting them and started again ($name)', 240_000, creditAcrossKill);

async function creditAcrossKill(storage: MainStorage, cleanup: Cleanup): Promise<void> {
  const { env, port } = await prepareMainRun(storage, cleanup);
  let server = await startMain(env);
  cleanup.push(() => {
    server.child.kill('SIGKILL');
  });
  // On the storage the suite names, not on another suite's database.
  expect(server.output()).toContain(storage.banner);
  const base = `http://127.0.0.1:${port}`;
  const call = apiCaller(base);
  const param = await call<{ chainId: number; chain: { rpcUrls: string[] }; token: { address: Address; decimals: number }; treasury: Address }>('/api/dapp/dappParam');

  // A member signs in with a wallet of their own.
  const { account: member, auth } = await signInOverHttp(base, param.chainId);
  const credit = async () => (await call<{ creditBalance: string }>('/api/member/meInfo', { headers: { authorization: auth } })).creditBalance;

  const chain = defineChain({ id: param.chainId, name: 'dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: param.chain.rpcUrls } } });
  // Receipts looked for every 100 ms: viem's default of 4 s left each funding transaction's wait at about 4 s.
  const pollingInterval = 100;
  const deployer = createWalletClient({ account: privateKeyToAccount(DEV_DEPLOYER_KEY as Hex), chain, transport: http(), pollingInterval }).extend(publicActions);
  await deployer.waitForTransactionReceipt({ hash: await deployer.sendTransaction({ to: member.address, value: parseEther('1') }) });
  await deployer.waitForTransactionReceipt({
    hash: await deployer.writeContract({ address: param.token.address, abi: erc20Abi, functionName: 'transfer', args: [member.address, parseUnits('1000', param.token.decimals)] }),
  });

  // 20 top-ups of different amounts, one every 250 ms (the node mines a block every 250 ms): about 5 s of them.
  const wallet = createWalletClient({ account: member, chain, transport: http(), pollingInterval }).extend(publicActions);
  const first = await wallet.getTransactionCount({ address: member.address });
  const amounts = Array.from({ length: 20 }, (_, index) => `${index + 1}.${String(index * 37).padStart(3, '0')}`);
  const expected = amounts.reduce((sum, amount) => sum + toMinor(amount), 0n);
  const sending = (async () => {
    for (const [index, amount] of amounts.entries()) {
      await wallet.writeContract({ address: param.token.address, abi: erc20Abi, functionName: 'transfer', args: [param.treasury, parseUnits(amount, param.token.decimals)], nonce: first + index });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();

  // Killed while they confirm and are credited (two blocks on top, a round every 250 ms): some, not all, credited.
  let beforeKill = '0';
  await vi.waitFor(
    async () => {
      beforeKill = await credit();
      expect(toMinor(beforeKill)).toBeGreaterThan(0n);
    },
    { timeout: 30_000, interval: 100 },
  );
  server.child.kill('SIGKILL');
  await new Promise((resolve) => server.child.once('exit', resolve));
  // Killed mid-credit: some of the top-ups were credited, not all.
  expect(toMinor(beforeKill)).toBeLessThan(expected);
  // Started again while the last top-ups are still being sent (the start takes longer than what is left of them).
  const restarting = startMain(env);
  try {
    await sending;
  } finally {
    // Kept for the cleanup, however the sending ended.
    server = await restarting;
  }
  await vi.waitFor(async () => expect(await credit()).toBe(formatMinor(expected)), { timeout: 60_000, interval: 100 });
  console.log(`top-up crash (${storage.name}): killed with at least ${beforeKill} of ${formatMinor(expected)} credited; after the restart ${formatMinor(expected)}`);
  // Rounds more credit nothing twice: the credit read after each of 8 rounds' time (CHAIN_POLL_MS 250, four blocks a
  // second) is still what was sent.
  for (let round = 0; round < 8; round++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await credit()).toBe(formatMinor(expected));
  }
  const ledger = await call<{ assets: { CREDIT: { total: string; members: string } }; negativeAccounts: number }>('/api/admin/ledger', { headers: await treasuryHeadersOverHttp(base) });
  expect(ledger).toMatchObject({ assets: { CREDIT: { total: '0' } }, negativeAccounts: 0 });
  // What the treasury holds on chain is what the ledger credited (the dev chain's other top-ups: none).
  const onChain = await deployer.readContract({ address: param.token.address, abi: erc20Abi, functionName: 'balanceOf', args: [param.treasury] });
  expect(onChain / 10n ** BigInt(param.token.decimals - 6)).toBe(expected);
  server.child.kill('SIGTERM');
}
