/**
 * Load worker of the sign-up rush (bench/rush.ts), in a worker thread so the client's CPU is not the server's. For
 * each group of new wallets: GET loginNonce for all (timed), build and sign the messages (client work, untimed),
 * POST memberSignLogin with the group's invite code for all (timed): a join is a sign-in that binds. Meanwhile a
 * probe member calls meInfo and its team page one after another, and their latencies are what other members felt.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { pool, requestJson, sleep } from './net';
import { fetchNonce, postSignIn, signNonce } from './siwe';

const groupSchema = z.object({
  label: z.string(),
  inviteCode: z.string(),
  privateKeys: z.array(z.string().regex(/^0x[0-9a-f]{64}$/i).transform((key) => key as Hex)),
});

const inputSchema = z.object({
  site: z.object({ baseUrl: z.string(), domain: z.string(), uri: z.string(), chainId: z.number(), statement: z.string() }),
  groups: z.array(groupSchema),
  concurrency: z.number().int().positive(),
  probeToken: z.string(),
});

export type RushInput = z.input<typeof inputSchema>;

export interface RushGroupResult {
  label: string;
  joins: number;
  /** Sign-ins that answered isFinishedBind true. */
  bound: number;
  nonceMs: number;
  signMs: number;
  postMs: number;
  /** Latencies of the probe's calls while the group's timed phases ran, in ms. */
  meInfoMs: number[];
  teamMs: number[];
}

export type RushAnswer = { ok: true; groups: RushGroupResult[] } | { ok: false; error: string };

/** Calls meInfo and the team page in turn until `stop` says so, with a short pause between calls. */
async function probe(site: RushInput['site'], token: string, stop: () => boolean, meInfoMs: number[], teamMs: number[]): Promise<void> {
  const headers = { authorization: token };
  while (!stop()) {
    let started = performance.now();
    const me = await requestJson(`${site.baseUrl}/api/member/meInfo`, { headers });
    meInfoMs.push(performance.now() - started);
    started = performance.now();
    const team = await requestJson(`${site.baseUrl}/api/member/team?page=1&pageSize=20`, { headers });
    teamMs.push(performance.now() - started);
    if (me.status !== 200 || team.status !== 200) throw new Error(`probe answered ${me.status} and ${team.status}`);
    await sleep(5);
  }
}

async function runGroup(input: z.output<typeof inputSchema>, group: z.output<typeof groupSchema>): Promise<RushGroupResult> {
  const accounts = group.privateKeys.map((key) => privateKeyToAccount(key));
  const meInfoMs: number[] = [];
  const teamMs: number[] = [];
  let probing = true;
  const probed = probe(input.site, input.probeToken, () => !probing, meInfoMs, teamMs);

  let started = performance.now();
  const nonces = await pool(accounts, input.concurrency, (account) => fetchNonce(input.site, account.address));
  const nonceMs = performance.now() - started;
  probing = false;
  await probed;

  started = performance.now();
  const signed = await Promise.all(accounts.map((account, index) => signNonce(input.site, account, nonces[index] as (typeof nonces)[number])));
  const signMs = performance.now() - started;

  probing = true;
  const probedAgain = probe(input.site, input.probeToken, () => !probing, meInfoMs, teamMs);
  started = performance.now();
  const answers = await pool(signed, input.concurrency, (message) => postSignIn(input.site, message, group.inviteCode));
  const postMs = performance.now() - started;
  probing = false;
  await probedAgain;
  return {
    label: group.label,
    joins: accounts.length,
    bound: answers.filter((answer) => answer.isFinishedBind).length,
    nonceMs,
    signMs,
    postMs,
    meInfoMs,
    teamMs,
  };
}

async function runRush(input: z.output<typeof inputSchema>): Promise<RushAnswer> {
  const groups: RushGroupResult[] = [];
  for (const group of input.groups) groups.push(await runGroup(input, group));
  return { ok: true, groups };
}

const port = parentPort;
if (port) {
  const parsed = inputSchema.safeParse(workerData);
  const answer: Promise<RushAnswer> = parsed.success
    ? runRush(parsed.data).catch((error: unknown) => ({ ok: false, error: error instanceof Error ? error.message : String(error) }))
    : Promise.resolve({ ok: false, error: `bad worker input: ${parsed.error.message}` });
  void answer.then((message) => port.postMessage(message));
}
