/**
 * The scale bench (`--only scale`, PostgreSQL): the member's calls on a small tree and again at 1,000,000 members,
 * measured in the same run, each large figure against 1.5 x its small one. The tree is a chain of 5,000 below the
 * root (its deepest member 5,000 levels down) and then a random tree of the rest (each new member below a random
 * earlier one: about 15-30 levels), written set-based (bench/treeSeed.ts) in minutes, not through HTTP.
 */
import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { issueToken } from '../server/auth/tokens';
import { queryRows } from '../server/db/client';
import { members } from '../server/db/schema';
import { SEED_INVITER } from '../server/seed/content';
import { startBenchServer, type BenchServer } from './appServer';
import { timeRequests, type Latencies } from './latency';
import { atMost, detail, emit, ms, rate } from './report';
import { joinsPerSecond, memberId, runJoins } from './rush';
import { addChain, addRandomTree, type ChainMember } from './treeSeed';

const CHAIN_LENGTH = 5_000;
const MEMBERS = 1_000_000;
/** A member call's p99 at size may be this many times its small-data p99 (the issue's goal). */
const FLAT_RATIO = 1.5;

interface Sample {
  /** Members in the database when the sample was taken. */
  members: number;
  latencies: Map<string, Latencies>;
  joins: number;
}

/** Addresses of `count` members picked at random (for search keywords that find someone). */
async function someAddresses(server: BenchServer, count: number): Promise<string[]> {
  const rows = await queryRows(
    server.db,
    sql`SELECT address FROM ${members} ORDER BY random() LIMIT ${count}`,
    z.object({ address: z.string() }),
  );
  return rows.map((row) => row.address);
}

/** A keyword as members type them: 4 to 10 digits of an address, from its start or anywhere. */
function keywordOf(address: string): string {
  const length = 4 + randomInt(7);
  const start = randomInt(2) === 0 ? 2 : 2 + randomInt(40 - length + 1);
  return address.slice(start, start + length);
}

/** How many members the database holds. */
async function memberCount(server: BenchServer): Promise<number> {
  const [row] = await queryRows(server.db, sql`SELECT count(*)::int AS count FROM ${members}`, z.object({ count: z.number() }));
  return row?.count ?? 0;
}

async function measure(server: BenchServer, rootId: number, chain: readonly ChainMember[], quick: boolean): Promise<Sample> {
  const count = quick ? 100 : 500;
  const warmup = quick ? 20 : 100;
  const deepest = chain.at(-1);
  const aboveDeepest = chain.at(-2);
  if (!deepest || !aboveDeepest) throw new Error('no chain');
  const memberTotal = await memberCount(server);
  const rootToken = await issueToken(server.db, rootId, new Date());
  const deepToken = await issueToken(server.db, aboveDeepest.id, new Date());
  const get = (token: string, path: string) => fetch(`${server.site.baseUrl}${path}`, { headers: { authorization: token } });
  const sample = await someAddresses(server, 2_000);
  if (sample.length === 0) throw new Error('no members to search for');
  const latencies = new Map<string, Latencies>();
  latencies.set('meInfo.root', await timeRequests(count, warmup, () => get(rootToken, '/api/member/meInfo')));
  latencies.set('meInfo.deep', await timeRequests(count, warmup, () => get(deepToken, '/api/member/meInfo')));
  latencies.set('teamPage.root', await timeRequests(count, warmup, () => get(rootToken, '/api/member/team?page=1&pageSize=20')));
  // The root opening the team of the member 4,999 levels below it.
  latencies.set('teamPage.deep', await timeRequests(count, warmup, () => get(rootToken, `/api/member/team?page=1&pageSize=20&of=${aboveDeepest.address}`)));
  latencies.set(
    'teamSearch.root',
    await timeRequests(count, warmup, (index) => get(rootToken, `/api/member/team/search?keyword=${keywordOf(sample[index % sample.length] ?? '')}`)),
  );
  latencies.set('teamSearch.deep', await timeRequests(count, warmup, () => get(deepToken, `/api/member/team/search?keyword=${keywordOf(sample[randomInt(sample.length)] ?? '')}`)));
  const { byLabel } = await runJoins(server, rootToken, [{ label: 'depth5000', inviteCode: deepest.inviteCode }], quick ? 300 : 2_000);
  const joins = byLabel.get('depth5000');
  if (!joins || joins.bound !== joins.joins) throw new Error('joins at depth 5,000 did not all bind');
  return { members: memberTotal, latencies, joins: joinsPerSecond(joins) };
}

/**
 * Runs the scale bench when DATABASE_URL names a PostgreSQL database (it is emptied and filled).
 *
 * @param databaseUrl - the database, or undefined to skip
 * @param quick - fewer requests and 100,000 members (figures not comparable)
 * @returns when printed
 * @example
 * await benchScale(process.env.DATABASE_URL, false);
 */
export async function benchScale(databaseUrl: string | undefined, quick: boolean): Promise<void> {
  if (!databaseUrl) {
    detail('scale: skipped (DATABASE_URL unset; the scale bench runs on PostgreSQL)');
    return;
  }
  const server = await startBenchServer({ url: databaseUrl });
  try {
    const rootId = await memberId(server, SEED_INVITER.inviteCode);
    let started = performance.now();
    const chain = await addChain(server.db, rootId, CHAIN_LENGTH, 'SC');
    detail(`scale.seed: a chain of ${CHAIN_LENGTH} in ${ms(performance.now() - started)}`);
    const small = await measure(server, rootId, chain, quick);

    const target = quick ? 100_000 : MEMBERS;
    started = performance.now();
    const added = await addRandomTree(server.db, rootId, target - (await memberCount(server)), 'SR');
    detail(`scale.seed: ${added.toLocaleString('en-US')} more members (a random tree below the root), set-based, in ${ms(performance.now() - started)}`);
    const large = await measure(server, rootId, chain, quick);
    const sizes = (sample: Sample) => sample.members.toLocaleString('en-US');

    for (const [name, big] of large.latencies) {
      const base = small.latencies.get(name);
      if (!base) continue;
      const goal = Math.max(base.p99 * FLAT_RATIO, 1);
      emit({
        name: `scale.${name}.p99`,
        value: ms(big.p99),
        floor: `${ms(base.p99)} (the same call at ${sizes(small)} members, same run)`,
        target: `goal <= ${FLAT_RATIO} x small`,
        verdict: atMost(big.p99, goal),
        note: `${(big.p99 / base.p99).toFixed(2)}x; p50 ${ms(big.p50)} (small ${ms(base.p50)}), ${big.count} calls one at a time, ${sizes(large)} members`,
      });
    }
    emit({
      name: 'scale.joins.depth5000',
      value: rate(large.joins, 'joins'),
      floor: `${rate(small.joins, 'joins')} (the same rush at ${sizes(small)} members, same run)`,
      target: 'goal >= 500 joins/s',
      verdict: large.joins >= 500 ? 'PASS' : 'MISS',
      note: `${(large.joins / small.joins).toFixed(2)}x; 64 connections, ${sizes(large)} members`,
    });
  } finally {
    await server.close();
  }
}
