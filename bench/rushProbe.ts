/**
 * The rush's probe (bench/rush.ts), in a worker thread of its own so that the load client's busy event loop is not
 * in its timings: one member calls meInfo and its team page one after another while the load worker says a timed
 * phase runs (on the BroadcastChannel RUSH_CHANNEL), and answers their latencies per group when told the rush ended.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { z } from 'zod';
import { requestJson, sleep } from './net';
import { RUSH_CHANNEL } from './rushChannel';
import { answerParent } from './tsWorker';


export interface ProbeTimes {
  meInfoMs: number[];
  teamMs: number[];
}

export type ProbeAnswer = { ok: true; byGroup: Record<string, ProbeTimes> } | { ok: false; error: string };

const inputSchema = z.object({ baseUrl: z.string(), token: z.string() });
const messageSchema = z.union([z.object({ phase: z.string().nullable() }), z.object({ end: z.literal(true) })]);

async function runProbe(input: z.output<typeof inputSchema>): Promise<ProbeAnswer> {
  const channel = new BroadcastChannel(RUSH_CHANNEL);
  const byGroup: Record<string, ProbeTimes> = {};
  let phase: string | null = null;
  let ended = false;
  channel.onmessage = (event: unknown) => {
    const parsed = messageSchema.safeParse((event as { data?: unknown }).data);
    if (!parsed.success) return;
    if ('end' in parsed.data) ended = true;
    else phase = parsed.data.phase;
  };
  const headers = { authorization: input.token };
  try {
    while (!ended) {
      const label = phase;
      if (label === null) {
        await sleep(5);
        continue;
      }
      const times = (byGroup[label] ??= { meInfoMs: [], teamMs: [] });
      let started = performance.now();
      const me = await requestJson(`${input.baseUrl}/api/member/meInfo`, { headers });
      times.meInfoMs.push(performance.now() - started);
      started = performance.now();
      const team = await requestJson(`${input.baseUrl}/api/member/team?page=1&pageSize=20`, { headers });
      times.teamMs.push(performance.now() - started);
      if (me.status !== 200 || team.status !== 200) throw new Error(`probe answered ${me.status} and ${team.status}`);
      await sleep(5);
    }
    return { ok: true, byGroup };
  } finally {
    channel.close();
  }
}

answerParent(inputSchema, runProbe);
