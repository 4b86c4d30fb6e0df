/**
 * Smart-account wallets sign in (server/auth/contractSigner.ts), on a real node and every database target: an
 * ERC-1271 account (contracts/SmartAccount.sol) whose owner's EIP-191 signature is the account's, deployed or not
 * yet (ERC-6492, wrapped with its factory's call). A wrong owner is 1005 as any bad signature; a node that does not
 * answer is 3007 and signs no one in; a top-up the account sent before it was a member is credited at its sign-in.
 * One chain for the file: nothing here depends on the chain's state but the accounts and the one top-up made first.
 */
import type { FastifyInstance } from 'fastify';
import {
  createWalletClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  http,
  parseAbi,
  parseUnits,
  serializeErc6492Signature,
  type Address,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import smartAccountArtifact from '../../server/chain/artifacts/SmartAccount.json' with { type: 'json' };
import factoryArtifact from '../../server/chain/artifacts/SmartAccountFactory.json' with { type: 'json' };
import { createTopUpWatcher } from '../../server/chain/topUpWatcher';
import { expectNoDbChange, expectRefused } from './support/assertions';
import { startTestChain, TEST_NODE_CHAIN_ID, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { relayedChain, RelayError, startRpcRelay, type RpcRelay } from './support/rpcRelay';
import { accounts, authHeaders, buildMessage, envelope, postSignLogin, requestNonce, type SignedIn } from './support/memberSignIn';

const CONFIRMATIONS = 3;
const factoryAbi = parseAbi(['function deploy(address owner, bytes32 salt) returns (address)']);
const smartAccountAbi = parseAbi(['function execute(address target, bytes data) returns (bytes)']);
const salt = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

let testChain: TestChain;
let relay: RpcRelay;
let factory: Address;
/** The owner key of every smart account here (an EOA that is no member). */
const owner = privateKeyToAccount(generatePrivateKey());
/** Deployed, with a 12-token top-up sent from it to the treasury before any sign-in. */
let deployed: Address;
/** Never deployed: its address is the factory's CREATE2 address for the owner and salt 2. */
let counterfactual: Address;
const counterfactualCall = encodeFunctionData({ abi: factoryAbi, functionName: 'deploy', args: [owner.address, salt(2)] });

beforeAll(async () => {
  testChain = await startTestChain({ confirmations: CONFIRMATIONS });
  relay = await startRpcRelay(testChain.node.url);
  const { client } = testChain.chain;
  const viemChain = defineChain({ id: TEST_NODE_CHAIN_ID, name: 'test', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [testChain.node.url] } } });
  const wallet = createWalletClient({ account: owner, chain: viemChain, transport: http(testChain.node.url) });
  await testChain.fund(owner.address, '0');
  const mined = async (hash: Hex) => client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  const factoryReceipt = await mined(await wallet.deployContract({ abi: factoryAbi, bytecode: factoryArtifact.bytecode as Hex }));
  factory = factoryReceipt.contractAddress ?? '0x';
  const deployOf = (n: number) => client.simulateContract({ account: owner, address: factory, abi: factoryAbi, functionName: 'deploy', args: [owner.address, salt(n)] });
  const first = await deployOf(1);
  deployed = first.result;
  counterfactual = (await deployOf(2)).result;
  await mined(await wallet.writeContract(first.request));
  await testChain.fund(deployed, '50');
  const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [testChain.treasury, parseUnits('12', testChain.decimals)] });
  await mined(await wallet.writeContract({ address: deployed, abi: smartAccountAbi, functionName: 'execute', args: [testChain.token, transfer] }));
  await testChain.mine(CONFIRMATIONS);
  expect(smartAccountArtifact.contractName).toBe('SmartAccount');
}, 60_000);

afterAll(async () => {
  await relay.stop();
  await testChain.stop();
});

describeWithDatabases('sign-in with a smart-account wallet', (ctx) => {
  /** A message for the account, signed by `signer` (EIP-191), the signature wrapped by `wrap`. */
  async function signedFor(app: FastifyInstance, account: Address, signer: PrivateKeyAccount, wrap: (signature: Hex) => Hex = (signature) => signature) {
    const nonce = await requestNonce(app, account);
    // buildMessage takes an account for its address only.
    const message = buildMessage({ ...signer, address: account }, nonce, ctx.clock.now());
    return { message, signature: wrap(await signer.signMessage({ message })) };
  }

  const appOnChain = (options: { relayed?: boolean } = {}) =>
    ctx.app({ chain: options.relayed ? relayedChain(testChain.chain, [relay]) : testChain.chain, topUpWatcher: { startBlock: testChain.deployBlock } });

  it('signs a deployed ERC-1271 account in with its owner key, as a member at the account address', async () => {
    const app = await appOnChain();
    const body = envelope<SignedIn>(await postSignLogin(app, { ...(await signedFor(app, deployed, owner)), inviteCode: 'DEMO2026' }));
    expect(body).toMatchObject({ code: ApiCode.ok, result: { isFinishedBind: true } });
    const me = envelope<{ address: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(body.result?.auth ?? '') }));
    expect(me.result?.address).toBe(deployed);
  });

  it('signs an account in before it is deployed (ERC-6492), and deploys nothing', async () => {
    const app = await appOnChain();
    const wrap = (signature: Hex) => serializeErc6492Signature({ address: factory, data: counterfactualCall, signature });
    const response = await postSignLogin(app, await signedFor(app, counterfactual, owner, wrap));
    expect(envelope(response).code).toBe(ApiCode.ok);
    expect(await testChain.chain.client.getCode({ address: counterfactual })).toBeUndefined();
  });

  it('takes a long smart-account signature (passkey accounts\' run to thousands of hex digits, wrapped for ERC-6492)', async () => {
    const app = await appOnChain();
    // The factory ignores calldata past its arguments: the same account, a signature of about 6,000 hex digits.
    const wrap = (signature: Hex) => serializeErc6492Signature({ address: factory, data: `${counterfactualCall}${'ab'.repeat(2_800)}`, signature });
    const signed = await signedFor(app, counterfactual, owner, wrap);
    expect(signed.signature.length).toBeGreaterThan(6_000);
    expect(envelope(await postSignLogin(app, signed)).code).toBe(ApiCode.ok);
  });

  it('refuses a signature by another key than the owner, or a wrapped one that deploys another account, with 1005', async () => {
    const app = await appOnChain();
    const wrongOwner = await signedFor(app, deployed, accounts.mallory);
    expectRefused(await expectNoDbChange(ctx.db, () => postSignLogin(app, wrongOwner)), ApiCode.signatureInvalid);
    const otherAccount = encodeFunctionData({ abi: factoryAbi, functionName: 'deploy', args: [accounts.mallory.address, salt(2)] });
    const wrapped = await signedFor(app, counterfactual, owner, (signature) => serializeErc6492Signature({ address: factory, data: otherAccount, signature }));
    expectRefused(await expectNoDbChange(ctx.db, () => postSignLogin(app, wrapped)), ApiCode.signatureInvalid);
    // An EOA's wrong signature is still 1005 when the chain is asked.
    const eoa = await signedFor(app, accounts.bob.address, accounts.carol);
    expectRefused(await expectNoDbChange(ctx.db, () => postSignLogin(app, eoa)), ApiCode.signatureInvalid);
  });

  it('refuses a smart account with 1005 on a server without a chain', async () => {
    const app = await ctx.app();
    const signed = await signedFor(app, deployed, owner);
    expectRefused(await expectNoDbChange(ctx.db, () => postSignLogin(app, signed)), ApiCode.signatureInvalid);
  });

  it('answers 3007 while the node is down, writing nothing; EOAs sign in meanwhile, and the nonce serves afterwards', async () => {
    relay.reset();
    const app = await appOnChain({ relayed: true });
    const signed = await signedFor(app, deployed, owner);
    const eoa = await signedFor(app, accounts.alice.address, accounts.alice);
    relay.down(true);
    try {
      expectRefused(await expectNoDbChange(ctx.db, () => postSignLogin(app, signed)), ApiCode.chainUnavailable);
      expect(envelope(await postSignLogin(app, eoa)).code).toBe(ApiCode.ok);
    } finally {
      relay.down(false);
    }
    expect(envelope(await postSignLogin(app, signed)).code).toBe(ApiCode.ok);
  });

  it('tells a provider error (3007) from a reverted check (1005) in what the node answers eth_call', async () => {
    relay.reset();
    const app = await appOnChain({ relayed: true });
    const answers: [RelayError, ApiCodeValue][] = [
      [new RelayError(-32005, 'limit exceeded'), ApiCode.chainUnavailable],
      [new RelayError(3, 'execution reverted'), ApiCode.signatureInvalid],
      [new RelayError(-32000, 'execution reverted'), ApiCode.signatureInvalid],
    ];
    try {
      for (const [answer, code] of answers) {
        relay.on('eth_call', () => {
          throw answer;
        });
        const signed = await signedFor(app, deployed, owner);
        expectRefused(await expectNoDbChange(ctx.db, () => postSignLogin(app, signed)), code);
      }
    } finally {
      relay.reset();
    }
  });

  it('credits a top-up the account sent before it was a member at its sign-in', async () => {
    const app = await appOnChain();
    const watcher = createTopUpWatcher({ db: ctx.db, chain: testChain.chain, now: ctx.clock.now, startBlock: testChain.deployBlock });
    expect(await watcher.runOnce()).toMatchObject({ credited: 0, held: 1 });
    const body = envelope<SignedIn>(await postSignLogin(app, { ...(await signedFor(app, deployed, owner)), inviteCode: 'DEMO2026' }));
    expect(body.code).toBe(ApiCode.ok);
    const me = envelope<{ creditBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(body.result?.auth ?? '') }));
    expect(me.result?.creditBalance).toBe('12');
  });
});
