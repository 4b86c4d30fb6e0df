/**
 * The payer's signer behind an interface (server/chain/payer/index.ts, PayerSigner): a remote signer the test runs
 * holds the hot wallet's key in its own process-like corner (an HTTP server, as Web3Signer or a KMS proxy is) and
 * signs what it is sent; the payer, built with viem's toAccount around it, never sees the key and pays once.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { erc20Abi, parseTransaction, parseUnits, serializeTransaction, type Hex, type TransactionSerializable } from 'viem';
import { generatePrivateKey, privateKeyToAccount, toAccount } from 'viem/accounts';
import { afterAll, expect, it } from 'vitest';
import { toMinor } from '../../api-schema/amount';
import { createPayer } from '../../server/chain/payer';
import { sharedTestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant, withdraw } from './support/testLedger';
import { accounts, envelope, signInBound } from './support/memberSignIn';

/** The remote side: signs the unsigned transactions it is posted (hex), answers the signed bytes; counts its calls. */
async function startRemoteSigner(key: Hex) {
  const account = privateKeyToAccount(key);
  const signed: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const transaction = parseTransaction(JSON.parse(body) as Hex);
      account.signTransaction(transaction as TransactionSerializable).then(
        (raw) => {
          signed.push(raw);
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(raw));
        },
        (error: unknown) => response.writeHead(400).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sign`;
  return { address: account.address, url, signed, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describeWithDatabases('the payer with a remote signer', (ctx) => {
  const shared = sharedTestChain({ confirmations: 1 });
  afterAll(() => shared.stop());

  it('pays through a signer that holds the key elsewhere: one signature a payment, paid once', async () => {
    const testChain = await shared.next();
    const remote = await startRemoteSigner(generatePrivateKey());
    await testChain.fund(remote.address, '100');
    const signer = toAccount({
      address: remote.address,
      async signTransaction(transaction) {
        const answer = await fetch(remote.url, { method: 'POST', body: JSON.stringify(serializeTransaction(transaction)) });
        if (!answer.ok) throw new Error(`remote signer: ${answer.status}`);
        return (await answer.json()) as Hex;
      },
      signMessage: () => Promise.reject(new Error('the payer signs transactions only')),
      signTypedData: () => Promise.reject(new Error('the payer signs transactions only')),
    });
    const app = await ctx.app({ chain: testChain.chain, autoApproveMax: toMinor('100'), payer: { key: signer, holder: 'app' } });
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    expect(envelope(await grant(app, { address: accounts.alice.address, amount: '50', requestId: randomUUID() })).code).toBe(0);
    await testChain.fund(testChain.treasury, '50');
    expect(envelope(await withdraw(app, alice, { amount: '20', requestId: randomUUID() })).code).toBe(0);
    const payer = createPayer({ db: ctx.db, chain: testChain.chain, key: signer, holder: 'app', now: ctx.clock.now });
    expect(await payer.round()).toMatchObject({ signed: 1 });
    await testChain.mine(1);
    expect(await payer.round()).toMatchObject({ posted: 1 });
    expect(remote.signed).toHaveLength(1);
    const balance = await testChain.chain.client.readContract({ address: testChain.token, abi: erc20Abi, functionName: 'balanceOf', args: [accounts.alice.address] });
    expect(balance).toBe(parseUnits('19', testChain.decimals));
    await expectBooksBalanced(ctx.db);
    await remote.close();
  });
});
