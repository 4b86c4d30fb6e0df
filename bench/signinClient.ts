/**
 * Load worker of figure 2 (runs in a worker thread so the client's CPU is not charged to the server's thread).
 * Per round, over every wallet: GET loginNonce (timed), build and sign the messages (timed separately: client
 * work), POST memberSignLogin (timed). Rounds go on until the timed windows reach `targetMs` or `maxRounds`.
 */
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { pool } from './net';
import { fetchNonce, postSignIn, signNonce, type SiteBinding } from './siwe';
import { answerParent } from './tsWorker';

export interface SignInLoadInput {
  site: SiteBinding;
  privateKeys: Hex[];
  concurrency: number;
  /** One unmeasured round with this many of the wallets first (JIT, connections). */
  warmupWallets: number;
  targetMs: number;
  maxRounds: number;
}

export interface SignInLoadResult {
  ok: true;
  signIns: number;
  rounds: number;
  /** Time spent in the GET loginNonce phases. */
  nonceMs: number;
  /** Client-side message building and signing (not part of the endpoint rate). */
  signMs: number;
  /** Time spent in the POST memberSignLogin phases. */
  postMs: number;
  /** CPU of this thread since it started (tsx, warm-up and signing included), to tell the server's CPU from the process's. */
  cpuMs: number;
}

export interface SignInLoadFailure {
  ok: false;
  error: string;
}

const inputSchema = z.object({
  site: z.object({ baseUrl: z.string(), domain: z.string(), uri: z.string(), chainId: z.number(), statement: z.string() }),
  privateKeys: z.array(z.string().regex(/^0x[0-9a-f]{64}$/i).transform((key) => key as Hex)),
  concurrency: z.number().int().positive(),
  warmupWallets: z.number().int().min(0),
  targetMs: z.number().positive(),
  maxRounds: z.number().int().positive(),
});

async function runLoad(input: SignInLoadInput): Promise<SignInLoadResult> {
  const all = input.privateKeys.map((key) => privateKeyToAccount(key));
  const totals = { signIns: 0, rounds: 0, nonceMs: 0, signMs: 0, postMs: 0 };
  const warmup = input.warmupWallets > 0 ? 1 : 0;
  for (let round = 0; round < warmup + input.maxRounds; round++) {
    const measured = round >= warmup;
    const accounts = measured ? all : all.slice(0, input.warmupWallets);
    let started = performance.now();
    const nonces = await pool(accounts, input.concurrency, (account) => fetchNonce(input.site, account.address));
    const nonceMs = performance.now() - started;

    started = performance.now();
    const signed = await Promise.all(accounts.map((account, index) => signNonce(input.site, account, nonces[index] as (typeof nonces)[number])));
    const signMs = performance.now() - started;

    started = performance.now();
    await pool(signed, input.concurrency, (message) => postSignIn(input.site, message));
    const postMs = performance.now() - started;

    if (!measured) continue;
    totals.signIns += accounts.length;
    totals.rounds += 1;
    totals.nonceMs += nonceMs;
    totals.signMs += signMs;
    totals.postMs += postMs;
    if (totals.nonceMs + totals.postMs >= input.targetMs) break;
  }
  const cpu = process.threadCpuUsage();
  return { ok: true, ...totals, cpuMs: (cpu.user + cpu.system) / 1000 };
}

answerParent(inputSchema, runLoad);
