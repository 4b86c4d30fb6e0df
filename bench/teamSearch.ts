/**
 * `--only teamsearch`: team search answered for a member with a downline of 10,000 (and another team of 5,000 next to
 * it), over HTTP on the in-process server with PGlite on disk, one request at a time. The goal is p99 <= 30 ms; the
 * floor is meInfo over the same connection with the same token (the access hook's token read and the envelope,
 * without the search). The team page's first and a deep page are printed for information.
 */
import { timeRequests } from './latency';
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { issueToken } from '../server/auth/tokens';
import { members, teamCounts } from '../server/db/schema';
import { bindRecommender } from '../server/members/tree';
import { SEED_INVITER } from '../server/seed/content';
import { addBulkDownline, randomAddress, type BulkMember } from '../tests/server/support/bulkTeam';
import { startBenchServer } from './appServer';
import { atMost, detail, emit, ms } from './report';

const DOWNLINE = 10_000;
const OTHER_TEAM = 5_000;
export const TEAM_SEARCH_P99_GOAL_MS = 30;

/** The keywords a member types: fragments of team members' addresses (anywhere, or the start with 0x), misses. */
function keywords(downline: readonly BulkMember[], count: number): string[] {
  const list: string[] = [];
  for (let index = 0; index < count; index++) {
    const address = downline[randomInt(downline.length)]?.address ?? randomAddress();
    const length = 4 + randomInt(7);
    const kind = index % 4;
    if (kind === 0) list.push(address.slice(2, 2 + length).toLowerCase()); // the start, no 0x
    else if (kind === 1) list.push(`0x${address.slice(2, 2 + length)}`); // the start, with 0x
    else if (kind === 2) {
      const start = 2 + randomInt(40 - length + 1);
      list.push(address.slice(start, start + length).toUpperCase()); // anywhere, upper case
    } else list.push(randomAddress().slice(2, 6)); // 4 random digits: a few matches or none
  }
  return list;
}

/**
 * Runs the team search figure (and the team page figures for information).
 *
 * @param quick - fewer requests (figures not comparable)
 * @returns when printed
 * @example
 * await benchTeamSearch(false);
 */
export async function benchTeamSearch(quick: boolean): Promise<void> {
  const server = await startBenchServer({});
  try {
    const { db } = server;
    const now = new Date();
    const newMember = async (code: string): Promise<number> => {
      const [row] = await db.insert(members).values({ address: randomAddress(), inviteCode: code }).returning({ id: members.id });
      if (!row) throw new Error('member not created');
      const outcome = await db.transaction((tx) => bindRecommender(tx, row.id, SEED_INVITER.inviteCode));
      if (outcome !== 'bound') throw new Error(`bench member not bound: ${outcome}`);
      return row.id;
    };
    let mark = performance.now();
    const bossId = await newMember('BENCHB01');
    const neighbourId = await newMember('BENCHN01');
    const downline = await addBulkDownline(db, { rootId: bossId, size: DOWNLINE, createdAt: now, codePrefix: 'BK' });
    await addBulkDownline(db, { rootId: neighbourId, size: OTHER_TEAM, createdAt: now, codePrefix: 'NX' });
    const [boss] = await db.select({ teamSize: teamCounts.teamSize }).from(teamCounts).where(eq(teamCounts.memberId, bossId));
    if (boss?.teamSize !== DOWNLINE) throw new Error(`the downline has ${String(boss?.teamSize)} members, not ${DOWNLINE}`);
    detail(`teamsearch: ${DOWNLINE} + ${OTHER_TEAM} members built in ${ms(performance.now() - mark)} (${server.storage})`);

    const token = await issueToken(db, bossId, now);
    const address = server.app.server.address();
    if (typeof address !== 'object' || !address) throw new Error('server has no port');
    const base = `http://127.0.0.1:${address.port}`;
    const get = (path: string) => fetch(`${base}${path}`, { headers: { authorization: token } });

    const count = quick ? 300 : 2_000;
    const warmup = quick ? 30 : 200;
    mark = performance.now();
    const floor = await timeRequests(count, warmup, () => get('/api/member/meInfo'));
    const typed = keywords(downline, warmup + count);
    let matches = 0;
    const search = await timeRequests(count, warmup, async (index) => {
      const response = await get(`/api/member/team/search?keyword=${encodeURIComponent(typed[index] ?? '')}`);
      const clone = response.clone();
      const body = (await clone.json()) as { result?: { list: unknown[] } };
      matches += body.result?.list.length ?? 0;
      return response;
    });
    emit({
      name: 'teamsearch.pglite.p99',
      value: ms(search.p99),
      floor: `${ms(floor.p99)} (meInfo, same token, one at a time; its p50 ${ms(floor.p50)})`,
      target: `goal <= ${ms(TEAM_SEARCH_P99_GOAL_MS)}`,
      verdict: atMost(search.p99, TEAM_SEARCH_P99_GOAL_MS),
      note: `p50 ${ms(search.p50)}, max ${ms(search.max)}, ${search.count} searches one at a time, downline ${DOWNLINE}, ${OTHER_TEAM} outside, ${(matches / (warmup + count)).toFixed(1)} matches per search, ${server.storage}`,
    });

    // The team page one level at a time (ADR 0034): the boss's direct members, and those of its deepest parent.
    const deepest = Math.max(...downline.map((member) => member.level));
    const deepParent = downline.find((member) => member.level === deepest - 1);
    if (!deepParent) throw new Error('no deep member');
    for (const [label, query] of [
      ['direct', ''],
      [`level${deepParent.level}`, `&of=${deepParent.address}`],
    ] as const) {
      const latencies = await timeRequests(quick ? 100 : 500, 20, () => get(`/api/member/team?page=1&pageSize=20${query}`));
      emit({
        name: `teamsearch.pglite.teamPage.${label}.p99`,
        value: ms(latencies.p99),
        floor: `${ms(floor.p99)} (meInfo)`,
        target: '-',
        verdict: 'INFO',
        note: `${label === 'direct' ? "the boss's direct members" : `the direct members of a member ${deepParent.level} levels below the boss`}, p50 ${ms(latencies.p50)}, ${latencies.count} requests`,
      });
    }
    detail(`teamsearch: measured in ${ms(performance.now() - mark)}`);
  } finally {
    await server.close();
  }
}
