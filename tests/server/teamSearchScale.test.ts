/**
 * Team search over a downline of 10,000 members next to another team of 2,000, on every database target: the
 * answers equal a plain filter of the caller's own downline (inside only, any case, with or without 0x), the plan
 * starts from the address-grams index.
 */
import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { issueToken } from '../../server/auth/tokens';
import { queryRows } from '../../server/db/client';
import { members, teamCounts } from '../../server/db/schema';
import { parseTeamKeyword, TEAM_SEARCH_LIMIT, teamSearchQuery } from '../../server/members/team';
import { bindRecommender } from '../../server/members/tree';
import { SEED_INVITER } from '../../server/seed/content';
import { addBulkDownline, randomAddress, type BulkMember } from './support/bulkTeam';
import { describeWithDatabases } from './support/harness';
import { authHeaders, envelope } from './support/memberSignIn';

const DOWNLINE = 10_000;
const OTHER_TEAM = 2_000;

/** Changes the case of some letters, as a member may type them. */
function mixCase(text: string): string {
  return [...text].map((char) => (randomInt(2) === 0 ? char.toUpperCase() : char.toLowerCase())).join('');
}

/** What a search must answer: the downline's matches, nearest level first, then by id, at most the limit. */
function expected(downline: readonly BulkMember[], keyword: string): string[] {
  const anchored = /^0x/i.test(keyword);
  const digits = keyword.replace(/^0x/i, '').toLowerCase();
  return downline
    .filter((member) => {
      const address = member.address.toLowerCase();
      return anchored ? address.startsWith(`0x${digits}`) : address.slice(2).includes(digits);
    })
    .sort((a, b) => a.level - b.level || a.id - b.id)
    .slice(0, TEAM_SEARCH_LIMIT)
    .map((member) => member.address);
}

describeWithDatabases('team search at scale', (ctx) => {
  async function newMemberUnder(inviteCode: string, code: string): Promise<number> {
    const [row] = await ctx.db.insert(members).values({ address: randomAddress(), inviteCode: code }).returning({ id: members.id });
    if (!row) throw new Error('member not created');
    expect(await ctx.db.transaction((tx) => bindRecommender(tx, row.id, inviteCode))).toBe('bound');
    return row.id;
  }

  async function found(app: FastifyInstance, token: string, keyword: string): Promise<string[]> {
    const response = await app.inject({ method: 'GET', url: '/api/member/team/search', query: { keyword }, headers: authHeaders(token) });
    const body = envelope<{ list: { address: string }[] }>(response);
    expect({ status: response.statusCode, code: body.code }).toEqual({ status: 200, code: 0 });
    return (body.result?.list ?? []).map((member) => member.address);
  }

  it('finds exactly the matches inside a 10,000-member downline, never the team next to it', { timeout: 300_000 }, async () => {
    const bossId = await newMemberUnder(SEED_INVITER.inviteCode, 'BOSS0001');
    const neighbourId = await newMemberUnder(SEED_INVITER.inviteCode, 'NEXT0001');
    const downline = await addBulkDownline(ctx.db, { rootId: bossId, size: DOWNLINE, createdAt: ctx.clock.now(), codePrefix: 'BK' });
    const otherTeam = await addBulkDownline(ctx.db, { rootId: neighbourId, size: OTHER_TEAM, createdAt: ctx.clock.now(), codePrefix: 'NX' });
    const [boss] = await ctx.db.select({ teamSize: teamCounts.teamSize }).from(teamCounts).where(eq(teamCounts.memberId, bossId));
    expect(boss?.teamSize).toBe(DOWNLINE);

    const app = await ctx.app();
    const bossToken = await issueToken(ctx.db, bossId, ctx.clock.now());
    const neighbourToken = await issueToken(ctx.db, neighbourId, ctx.clock.now());

    const pick = <T>(list: readonly T[]): T => {
      const item = list[randomInt(list.length)];
      if (item === undefined) throw new Error('empty list');
      return item;
    };
    const keywords: string[] = [];
    for (let i = 0; i < 20; i++) {
      const address = pick(downline).address;
      const length = 4 + randomInt(5);
      const start = 2 + randomInt(40 - length + 1);
      keywords.push(mixCase(address.slice(start, start + length))); // anywhere, no 0x
      keywords.push(`${randomInt(2) === 0 ? '0x' : '0X'}${mixCase(address.slice(2, 2 + length))}`); // the start, with 0x
    }
    for (let i = 0; i < 10; i++) {
      const address = pick(otherTeam).address;
      keywords.push(address.slice(10, 16)); // from the team next door: its members must never show
      keywords.push(address); // a whole address of the other team
    }
    for (let i = 0; i < 10; i++) keywords.push(randomAddress().slice(2, 6)); // 4 random digits: often a few matches
    keywords.push(downline[0]?.address.slice(2, 6) ?? '');

    const otherAddresses = new Set(otherTeam.map((member) => member.address));
    for (const keyword of keywords) {
      const answer = await found(app, bossToken, keyword);
      expect({ keyword, answer }).toEqual({ keyword, answer: expected(downline, keyword) });
      expect(answer.some((address) => otherAddresses.has(address))).toBe(false);
    }

    // The team next door finds none of the boss's members; the root above both finds them.
    const someone = pick(downline).address;
    expect(await found(app, neighbourToken, someone)).toEqual([]);
    expect(await found(app, neighbourToken, someone.slice(20, 30))).toEqual([]);
    const [root] = await ctx.db.select({ id: members.id }).from(members).where(eq(members.inviteCode, SEED_INVITER.inviteCode));
    if (!root) throw new Error('no root');
    expect(await found(app, await issueToken(ctx.db, root.id, ctx.clock.now()), someone)).toEqual([someone]);

    // The plan starts from the candidates in the address-grams index, not from the 10,000 rows of the downline.
    const keyword = parseTeamKeyword(someone.slice(2, 8));
    if (!keyword) throw new Error('keyword');
    const plan = await queryRows(ctx.db, sql`EXPLAIN ${teamSearchQuery(bossId, keyword)}`, z.object({ 'QUERY PLAN': z.string() }));
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain('members_address_grams_idx');
  });
});
