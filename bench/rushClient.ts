/**
 * Load worker of the sign-up rush (bench/rush.ts), in a worker thread so the client's CPU is not the server's. For
 * each group of new wallets: GET loginNonce for all (timed), build and sign the messages (client work, untimed),
 * POST memberSignLogin with the group's invite code for all (timed): a join is a sign-in that binds. It tells the
 * probe worker (bench/rushProbe.ts) when each timed phase starts and stops.
 */
import { BroadcastChannel } from 'node:worker_threads';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { pool } from './net';
import { RUSH_CHANNEL } from './rushChannel';
import { fetchNonce, postSignIn, signNonce } from './siwe';
import { answerParent } from './tsWorker';

const groupSchema = z.object({
  label: z.string(),
  inviteCode: z.string(),
  privateKeys: z.array(z.string().regex(/^0x[0-9a-f]{64}$/i).transform((key) => key as Hex)),
});

const inputSchema = z.object({
  site: z.object({ baseUrl: z.string(), domain: z.string(), uri: z.string(), chainId: z.number(), statement: z.string() }),
  groups: z.array(groupSchema),
  concurrency: z.number().int().positive(),
});

/** Tells the probe (bench/rushProbe.ts) which timed phase runs. */
const phases = new BroadcastChannel(RUSH_CHANNEL);

export type RushInput = z.input<typeof inputSchema>;

export interface RushGroupResult {
  label: string;
  joins: number;
  /** Sign-ins that answered isFinishedBind true. */
  bound: number;
  nonceMs: number;
  signMs: number;
  postMs: number;
}

export type RushAnswer = { ok: true; groups: RushGroupResult[] } | { ok: false; error: string };

async function runGroup(input: z.output<typeof inputSchema>, group: z.output<typeof groupSchema>): Promise<RushGroupResult> {
  const accounts = group.privateKeys.map((key) => privateKeyToAccount(key));
  phases.postMessage({ phase: group.label });
  let started = performance.now();
  const nonces = await pool(accounts, input.concurrency, (account) => fetchNonce(input.site, account.address));
  const nonceMs = performance.now() - started;
  phases.postMessage({ phase: null });

  started = performance.now();
  const signed = await Promise.all(accounts.map((account, index) => signNonce(input.site, account, nonces[index] as (typeof nonces)[number])));
  const signMs = performance.now() - started;

  phases.postMessage({ phase: group.label });
  started = performance.now();
  const answers = await pool(signed, input.concurrency, (message) => postSignIn(input.site, message, group.inviteCode));
  const postMs = performance.now() - started;
  phases.postMessage({ phase: null });
  return {
    label: group.label,
    joins: accounts.length,
    bound: answers.filter((answer) => answer.isFinishedBind).length,
    nonceMs,
    signMs,
    postMs,
  };
}

async function runRush(input: z.output<typeof inputSchema>): Promise<RushAnswer> {
  const groups: RushGroupResult[] = [];
  try {
    for (const group of input.groups) groups.push(await runGroup(input, group));
  } finally {
    // The rush's end is the main thread's to say (bench/rush.ts): this worker ends as soon as it answers.
    phases.postMessage({ phase: null });
    phases.close();
  }
  return { ok: true, groups };
}

answerParent(inputSchema, runRush);
