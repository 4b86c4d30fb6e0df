/**
 * Figure 2: sign-ins per second through HTTP (GET loginNonce + POST memberSignLogin, client in a worker thread,
 * client-side signing outside the timed window) against the goal of 1,000/s, with raw signature
 * recoveries per second on pre-made pairs in this process as the floor: libsecp256k1's (the server's recovery, ADR
 * 0028) and viem's recoverMessageAddress (its fallback). A detail line times the same two services called directly
 * (issueNonce + signIn, no HTTP), to split the gap between database and HTTP layers.
 */
import { sql } from 'drizzle-orm';
import { getAddress, recoverMessageAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { issueNonce, type IssuedNonce } from '../server/auth/nonces';
import { signIn } from '../server/auth/signIn';
import { signerRecovery } from '../server/auth/signerRecovery';
import { isSecp256k1Binding, recoverWithBinding } from '../server/siwe/recoverNative';
import type { BenchServer } from './appServer';
import { atLeast, detail, emit, ms, rate } from './report';
import type { SignInLoadFailure, SignInLoadInput, SignInLoadResult } from './signinClient';
import { signNonce } from './siwe';
import { isWorkerAnswer, runTsWorker } from './tsWorker';

/** Sign-ins per second through HTTP on PGlite (the target line below says it). */
const GOAL_PER_SECOND = 1_000;
const WALLETS = 200;
const CONCURRENCY = 10;
const RAW_MS = 2_000;
const SERVICE_WALLETS = 50;

interface SignedPair {
  message: string;
  signature: Hex;
}

async function makePairs(server: BenchServer, keys: Hex[]): Promise<SignedPair[]> {
  const now = new Date();
  return Promise.all(
    keys.map((key) =>
      signNonce(server.site, privateKeyToAccount(key), {
        nonce: `benchpair${key.slice(2, 18)}`,
        issuedAt: now.toISOString(),
        expirationTime: new Date(now.getTime() + 300_000).toISOString(),
      }),
    ),
  );
}

type Recover = (pair: SignedPair) => unknown;

/** viem's recovery, the server's fallback. */
const viemRecover: Recover = (pair) => recoverMessageAddress(pair);

/** libsecp256k1's recovery on this thread (hash, recovery, checksum), or undefined where its binding does not load. */
async function nativeRecover(): Promise<Recover | undefined> {
  const binding: unknown = await import('secp256k1/bindings.js').then((module) => module.default, () => undefined);
  if (!isSecp256k1Binding(binding)) return undefined;
  return (pair) => recoverWithBinding(binding, pair.message, pair.signature);
}

/** Sequential recoveries for about `windowMs`; returns recoveries per second. */
async function rawRecoveryRate(pairs: SignedPair[], windowMs: number, recover: Recover): Promise<number> {
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < windowMs) {
    const pair = pairs[count % pairs.length] as SignedPair;
    await recover(pair);
    count++;
    elapsed = performance.now() - started;
  }
  return count / (elapsed / 1000);
}

/** issueNonce + signIn called directly for each wallet, sequentially; returns sign-ins per second. */
async function serviceRate(server: BenchServer, keys: Hex[]): Promise<{ perSecond: number; nonceMs: number; signInMs: number }> {
  const accounts = keys.map((key) => privateKeyToAccount(key));
  let started = performance.now();
  const nonces: IssuedNonce[] = [];
  for (const account of accounts) nonces.push(await issueNonce(server.db, getAddress(account.address), new Date()));
  const nonceMs = performance.now() - started;
  const signed = await Promise.all(accounts.map((account, index) => signNonce(server.site, account, nonces[index] as IssuedNonce)));
  started = performance.now();
  for (const pair of signed) {
    await signIn(server.db, { ...pair, expectedDomain: server.site.domain, now: new Date() });
  }
  const signInMs = performance.now() - started;
  return { perSecond: accounts.length / ((nonceMs + signInMs) / 1000), nonceMs, signInMs };
}

/** Mean time of a trivial statement: the per-query floor of the storage. */
async function queryCost(server: BenchServer): Promise<number> {
  for (let i = 0; i < 20; i++) await server.db.execute(sql`SELECT 1`);
  const started = performance.now();
  for (let i = 0; i < 200; i++) await server.db.execute(sql`SELECT 1`);
  return (performance.now() - started) / 200;
}

/**
 * Measures figure 2 and prints its lines.
 *
 * @param server - the running server (PGlite); its rate limits must be out of the way
 * @returns when printed
 * @example
 * await benchSignIn(await startBenchServer(undefined));
 */
export async function benchSignIn(server: BenchServer): Promise<void> {
  const keys = Array.from({ length: WALLETS }, () => generatePrivateKey());
  const pairs = await makePairs(server, keys);
  const native = await nativeRecover();
  await rawRecoveryRate(pairs, 300, viemRecover); // warm-up (JIT, lazy secp256k1 import)
  if (native) await rawRecoveryRate(pairs, 100, native);

  const input: SignInLoadInput = {
    site: server.site,
    privateKeys: keys,
    concurrency: CONCURRENCY,
    // One untimed round of every wallet: a server's rate is its steady one, and 40 sign-ins left V8 optimising the
    // request path during the first timed round (1,001-1,167/s then, 1,090-1,458/s after a whole round; bench/README).
    warmupWallets: WALLETS,
    targetMs: 4_000,
    maxRounds: 8,
  };
  // With viem's fallback, its worker threads start before the CPU is counted (as in a server that has signed someone in).
  const { recover } = await signerRecovery();
  await Promise.all(pairs.slice(0, 8).map((pair) => recover(pair.message, pair.signature)));
  const cpuStart = process.cpuUsage();
  const requestThreadStart = process.threadCpuUsage();
  const answer = await runTsWorker(new URL('./signinClient.ts', import.meta.url), input, 90_000);
  const processCpu = process.cpuUsage(cpuStart);
  const requestThread = process.threadCpuUsage(requestThreadStart);
  if (!isWorkerAnswer<SignInLoadResult | SignInLoadFailure>(answer)) throw new Error('sign-in worker answered nonsense');
  if (!answer.ok) throw new Error(`sign-in worker: ${answer.error}`);

  const rawViem = await rawRecoveryRate(pairs, RAW_MS, viemRecover);
  const rawNative = native ? await rawRecoveryRate(pairs, RAW_MS, native) : undefined;
  const { engine } = await signerRecovery();
  const endpointMs = answer.nonceMs + answer.postMs;
  const endpoint = answer.signIns / (endpointMs / 1000);
  const floor = rawNative === undefined ? `${rate(rawViem, 'recoveries')} (viem recoverMessageAddress)` : `${rate(rawNative, 'recoveries')} (libsecp256k1)`;
  emit({
    name: 'signin.endpoint',
    value: rate(endpoint, 'sign-ins'),
    floor,
    target: 'goal >= 1,000 sign-ins/s',
    verdict: atLeast(endpoint, GOAL_PER_SECOND),
    note: `recovery ${engine === 'libsecp256k1' ? 'libsecp256k1 on the request thread' : 'viem in worker threads'}; ${answer.signIns} sign-ins by ${WALLETS} wallets, ${CONCURRENCY} connections, ${server.storage}`,
  });
  detail(
    `signin.recovery: raw, sequential, on this thread: libsecp256k1 ${rawNative === undefined ? 'not loaded' : rate(rawNative, 'recoveries')}, ` +
      `viem ${rate(rawViem, 'recoveries')} (hash, recovery and checksum each)`,
  );
  // The process's CPU less the client thread's: the server's threads (request, PGlite), and V8's compiler and GC
  // threads (the client's among them), over every sign-in of the run, warm-up included. CPU time is what a loaded
  // host stretches least; the request thread's bounds the rate one instance can reach whatever the host.
  const serverCpuMs = (processCpu.user + processCpu.system) / 1000 - answer.cpuMs;
  const allSignIns = answer.signIns + input.warmupWallets;
  const requestThreadMs = (requestThread.user + requestThread.system) / 1000;
  detail(
    `signin.cpu: per sign-in (${allSignIns} with the warm-up), ${ms(serverCpuMs / allSignIns)} of the process's CPU but the client thread's, ` +
      `${ms(requestThreadMs / allSignIns)} of the request thread's (alone it allows ${rate((1000 * allSignIns) / requestThreadMs, 'sign-ins')})`,
  );
  detail(
    `signin.phases: loginNonce ${ms(answer.nonceMs / answer.signIns)}/sign-in, memberSignLogin ${ms(answer.postMs / answer.signIns)}/sign-in ` +
      `(server: ${ms(1000 / endpoint)}/sign-in in all)`,
  );
  emit({
    name: 'signin.clientSigning',
    value: rate(answer.signIns / (answer.signMs / 1000), 'signatures'),
    floor: 'n/a',
    target: '-',
    verdict: 'INFO',
    note: 'createSiweMessage + signMessage in the client worker, outside the timed window',
  });

  const serviceKeys = keys.slice(0, SERVICE_WALLETS);
  const service = await serviceRate(server, serviceKeys);
  detail(
    `signin.service: ${rate(service.perSecond, 'sign-ins')} calling issueNonce + signIn directly (no HTTP), ` +
      `issueNonce ${ms(service.nonceMs / SERVICE_WALLETS)}, signIn ${ms(service.signInMs / SERVICE_WALLETS)} per sign-in, sequential`,
  );
  const query = await queryCost(server);
  detail(`signin.db: ${ms(query)} per trivial query (SELECT 1 through drizzle, ${server.storage}); a sign-in runs 2 (loginNonce's insert, memberSignLogin's one write; ADR 0004)`);
}
