/**
 * The sign-up rush: joins (GET loginNonce + POST memberSignLogin with an invite code, which binds) per second
 * under 64 connections, below a member at depth 1, 1,000 and 5,000 of a chain written set-based (bench/treeSeed.ts).
 * The floor is the same sign-in without an invite code, measured in the same run. Meanwhile the root (whose team
 * every join enters) reads meInfo and its team page one call after another, from a worker of its own
 * (bench/rushProbe.ts); their p99 is what other members felt.
 * Afterwards the counts are checked: every inviter and the root gained exactly their joins, and once folded the
 * kept counts say the same.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { eq, sql } from 'drizzle-orm';
import { generatePrivateKey } from 'viem/accounts';
import { z } from 'zod';
import { issueToken } from '../server/auth/tokens';
import { queryRows } from '../server/db/client';
import { members, teamCounts } from '../server/db/schema';
import { exactTeamSize, foldTeamCounts } from '../server/members/teamCounts';
import { SEED_INVITER } from '../server/seed/content';
import type { BenchServer } from './appServer';
import { percentile } from './latency';
import { atLeast, atMost, detail, emit, ms, rate } from './report';
import type { RushAnswer, RushGroupResult, RushInput } from './rushClient';
import { RUSH_CHANNEL } from './rushChannel';
import type { ProbeAnswer } from './rushProbe';
import { addChain, type ChainMember } from './treeSeed';
import { isWorkerAnswer, runTsWorker } from './tsWorker';

/** The goal: joins per second at every depth. */
const JOINS_GOAL_PER_SECOND = 500;
/** The goal for everyone else's calls meanwhile. */
const OTHERS_P99_GOAL_MS = 50;
const CONCURRENCY = 64;
const CHAIN_LENGTH = 5_000;
const DEPTHS = [1, 1_000, 5_000] as const;

function p99(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 99);
}

/** The id of the member with this invite code. */
export async function memberId(server: BenchServer, inviteCode: string): Promise<number> {
  const [row] = await server.db.select({ id: members.id }).from(members).where(eq(members.inviteCode, inviteCode));
  if (!row) throw new Error(`no member ${inviteCode}`);
  return row.id;
}

/** The team size every read shows (kept plus waiting). */
async function teamSizeOf(server: BenchServer, id: number): Promise<number> {
  const [row] = await queryRows(server.db, sql`SELECT ${exactTeamSize('m')} AS size FROM ${members} m WHERE m.id = ${id}::int`, z.object({ size: z.number() }));
  return row?.size ?? 0;
}

/** Joins per second of a group: its wallets over its timed phases. */
export function joinsPerSecond(group: RushGroupResult): number {
  return group.joins / ((group.nonceMs + group.postMs) / 1000);
}

/**
 * One rush: an untimed warm-up below the first group's inviter, the floor (`signin`: the same sign-ins without an
 * invite code), then each group of `wallets` new wallets joining below its inviter, with the probe reading the
 * probe token's meInfo and team page meanwhile.
 *
 * @param server - the running server
 * @param probeToken - the member whose calls are timed meanwhile
 * @param groups - label and inviter's code of each group, in order
 * @param wallets - wallets per group
 * @returns each group's result by label (warm-up and signin too) and the probe's latencies by label
 * @example
 * const { byLabel, probe } = await runJoins(server, token, [{ label: 'depth5000', inviteCode }], 2_000);
 */
export async function runJoins(
  server: BenchServer,
  probeToken: string,
  groups: readonly { label: string; inviteCode: string }[],
  wallets: number,
): Promise<{ byLabel: Map<string, RushGroupResult>; probe: Extract<ProbeAnswer, { ok: true }> }> {
  const keys = (count: number) => Array.from({ length: count }, () => generatePrivateKey());
  const input: RushInput = {
    site: server.site,
    concurrency: CONCURRENCY,
    groups: [
      // One untimed round first (JIT, connections), then the floor, then each group.
      { label: 'warm-up', inviteCode: groups[0]?.inviteCode ?? '', privateKeys: keys(Math.min(wallets, 300)) },
      { label: 'signin', inviteCode: '', privateKeys: keys(wallets) },
      ...groups.map((group) => ({ ...group, privateKeys: keys(wallets) })),
    ],
  };
  const probing = runTsWorker(new URL('./rushProbe.ts', import.meta.url), { baseUrl: server.site.baseUrl, token: probeToken }, 600_000);
  const answer = await runTsWorker(new URL('./rushClient.ts', import.meta.url), input, 600_000).finally(() => {
    const phases = new BroadcastChannel(RUSH_CHANNEL);
    phases.postMessage({ end: true });
    phases.close();
  });
  const probe = await probing;
  if (!isWorkerAnswer<RushAnswer>(answer)) throw new Error('rush worker answered nonsense');
  if (!answer.ok) throw new Error(`rush worker: ${answer.error}`);
  if (!isWorkerAnswer<ProbeAnswer>(probe)) throw new Error('rush probe answered nonsense');
  if (!probe.ok) throw new Error(`rush probe: ${probe.error}`);
  return { byLabel: new Map(answer.groups.map((group) => [group.label, group])), probe };
}

/**
 * Measures the rush on a running server and prints its figures.
 *
 * @param server - the in-process server (PGlite or PostgreSQL), sign-in limits raised
 * @param label - `pglite` or `postgres`, in the figure names
 * @param quick - fewer wallets (figures not comparable)
 * @returns when printed
 * @example
 * await benchRush(server, 'pglite', false);
 */
export async function benchRush(server: BenchServer, label: string, quick: boolean): Promise<void> {
  const wallets = quick ? 300 : 2_000;
  const rootId = await memberId(server, SEED_INVITER.inviteCode);
  let started = performance.now();
  const chain = await addChain(server.db, rootId, CHAIN_LENGTH, 'RU');
  detail(`rush.${label}.seed: a chain of ${CHAIN_LENGTH} members below the root, set-based, in ${ms(performance.now() - started)}`);
  const inviters = DEPTHS.map((depth) => chain[depth - 1]).filter((member): member is ChainMember => member !== undefined);
  const before = await Promise.all([rootId, ...inviters.map((member) => member.id)].map((id) => teamSizeOf(server, id)));
  const probeToken = await issueToken(server.db, rootId, new Date());
  const { byLabel, probe } = await runJoins(
    server,
    probeToken,
    inviters.map((member) => ({ label: `depth${member.depth}`, inviteCode: member.inviteCode })),
    wallets,
  );
  const floor = byLabel.get('signin');
  if (!floor) throw new Error('no sign-in floor');
  const floorRate = joinsPerSecond(floor);

  for (const member of inviters) {
    const group = byLabel.get(`depth${member.depth}`);
    if (!group) throw new Error(`no group at depth ${member.depth}`);
    if (group.bound !== group.joins) throw new Error(`${group.joins - group.bound} of ${group.joins} joins at depth ${member.depth} did not bind`);
    const joins = joinsPerSecond(group);
    emit({
      name: `rush.${label}.depth${member.depth}`,
      value: rate(joins, 'joins'),
      floor: `${rate(floorRate, 'sign-ins')} (the same sign-in without an invite code, same run)`,
      target: `goal >= ${JOINS_GOAL_PER_SECOND} joins/s`,
      verdict: atLeast(joins, JOINS_GOAL_PER_SECOND),
      note: `${group.joins} joins below a member ${member.depth} levels down, ${CONCURRENCY} connections, ${server.storage}; ${(joins / floorRate).toFixed(2)}x the floor`,
    });
    const times = probe.byGroup[group.label] ?? { meInfoMs: [], teamMs: [] };
    const others = Math.max(p99(times.meInfoMs), p99(times.teamMs));
    emit({
      name: `rush.${label}.depth${member.depth}.othersP99`,
      value: ms(others),
      floor: 'n/a',
      target: `goal <= ${OTHERS_P99_GOAL_MS} ms`,
      verdict: atMost(others, OTHERS_P99_GOAL_MS),
      note: `the root's meInfo p99 ${ms(p99(times.meInfoMs))} (${times.meInfoMs.length} calls), team page p99 ${ms(p99(times.teamMs))}, one after another during the joins (a worker of their own)`,
    });
  }

  // Exact at once: each inviter gained its joins, the root every join that bound below it (warm-up included).
  const after = await Promise.all([rootId, ...inviters.map((member) => member.id)].map((id) => teamSizeOf(server, id)));
  const warmup = byLabel.get('warm-up')?.joins ?? 0;
  const expected = [
    (before[0] ?? 0) + warmup + wallets * inviters.length,
    // The chain's members are each other's ancestors: the one at depth 1 gains every group's joins and the warm-up's.
    ...inviters.map((_, index) => (before[index + 1] ?? 0) + wallets * (inviters.length - index) + (index === 0 ? warmup : 0)),
  ];
  if (after.join() !== expected.join()) throw new Error(`team sizes after the rush ${after.join()} are not ${expected.join()}`);
  started = performance.now();
  const folded = await server.db.transaction((tx) => foldTeamCounts(tx));
  const [kept] = await queryRows(server.db, sql`SELECT team_size AS size FROM ${teamCounts} WHERE member_id = ${rootId}::int`, z.object({ size: z.number() }));
  if (kept?.size !== after[0]) throw new Error(`the root keeps ${kept?.size} once folded, reads showed ${after[0]}`);
  detail(
    `rush.${label}.counts: exact during and after the rush (root ${after[0]}); the last fold took ${folded} waiting binds in ${ms(performance.now() - started)}`,
  );
}
