/** The team screens' calls: team (one level at a time, from the caller or a member below it) and team/search, on every database target. */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { issueToken } from '../../server/auth/tokens';
import { members } from '../../server/db/schema';
import { TEAM_SEARCH_LIMIT } from '../../server/members/team';
import { bindRecommender } from '../../server/members/tree';
import { SEED_INVITER, SEED_TEAM } from '../../server/seed/content';
import { seed } from '../../server/seed/seed';
import { expectNoDbChange, expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

interface TeamMember {
  address: string;
  level: number;
  teamSize: number;
  directCount: number;
  joinedAt: string;
}
interface TeamPage {
  list: TeamMember[];
  total: number;
  page: number;
  pageSize: number;
}

/** SEED_TEAM by invite code: DEMOTM01 and 02 are direct; 03 and 04 under 01, 05 under 02; 06 under 03. */
function seeded(code: string) {
  const entry = SEED_TEAM.find((member) => member.inviteCode === code);
  if (!entry) throw new Error(`no seeded member ${code}`);
  return entry;
}

describeWithDatabases('team', (ctx) => {
  /** The seeded demo downline, and a token for a member picked by invite code (the seeded members have no keys). */
  async function tokenOf(inviteCode: string): Promise<string> {
    const [row] = await ctx.db.select({ id: members.id }).from(members).where(eq(members.inviteCode, inviteCode));
    if (!row) throw new Error(`no member ${inviteCode}`);
    return issueToken(ctx.db, row.id, ctx.clock.now());
  }

  async function teamPage(app: FastifyInstance, token: string, query = '') {
    return app.inject({ method: 'GET', url: `/api/member/team${query}`, headers: authHeaders(token) });
  }

  async function search(app: FastifyInstance, token: string, keyword: string) {
    return app.inject({ method: 'GET', url: '/api/member/team/search', query: { keyword }, headers: authHeaders(token) });
  }

  async function found(app: FastifyInstance, token: string, keyword: string): Promise<string[]> {
    const response = await search(app, token, keyword);
    const body = envelope<{ list: TeamMember[] }>(response);
    expect({ status: response.statusCode, code: body.code }).toEqual({ status: 200, code: 0 });
    return (body.result?.list ?? []).map((member) => member.address);
  }

  const row = (code: string, level: number, teamSize: number, directCount: number) => ({
    address: seeded(code).address,
    level,
    teamSize,
    directCount,
    joinedAt: seeded(code).createdAt.toISOString(),
  });

  it('lists the direct members in the order they joined, each with its own counts', async () => {
    await seed(ctx.db, { demoTeam: true });
    const app = await ctx.app();
    const body = envelope<TeamPage>(await teamPage(app, await tokenOf(SEED_INVITER.inviteCode)));
    expect(body.code).toBe(0);
    expect(body.result).toEqual({ list: [row('DEMOTM01', 1, 3, 2), row('DEMOTM02', 1, 1, 1)], total: 2, page: 1, pageSize: 20 });
  });

  it('opens any member of the downline with `of`, levels counted from the caller', async () => {
    await seed(ctx.db, { demoTeam: true });
    const app = await ctx.app();
    const root = await tokenOf(SEED_INVITER.inviteCode);
    const of = (code: string) => `?of=${seeded(code).address}`;
    expect(envelope<TeamPage>(await teamPage(app, root, of('DEMOTM01'))).result).toEqual({
      list: [row('DEMOTM03', 2, 1, 1), row('DEMOTM04', 2, 0, 0)],
      total: 2,
      page: 1,
      pageSize: 20,
    });
    expect(envelope<TeamPage>(await teamPage(app, root, `?of=${seeded('DEMOTM03').address.toLowerCase()}`)).result?.list).toEqual([row('DEMOTM06', 3, 0, 0)]);
    expect(envelope<TeamPage>(await teamPage(app, root, of('DEMOTM06'))).result).toEqual({ list: [], total: 0, page: 1, pageSize: 20 });
    // A member of the team sees its own subtree, levels from itself.
    expect(envelope<TeamPage>(await teamPage(app, await tokenOf('DEMOTM01'), of('DEMOTM03'))).result?.list).toEqual([row('DEMOTM06', 2, 0, 0)]);
  });

  it('refuses `of` outside the downline: itself, an upline, a sibling branch, a stranger (1001), writing nothing', async () => {
    await seed(ctx.db, { demoTeam: true });
    const app = await ctx.app();
    const viaTm02 = await tokenOf('DEMOTM02');
    for (const outside of [seeded('DEMOTM02').address, SEED_INVITER.address, seeded('DEMOTM03').address, accounts.alice.address]) {
      const response = await expectNoDbChange(ctx.db, () => teamPage(app, viaTm02, `?of=${outside}`));
      expectRefused(response, ApiCode.invalidParameters, 'of');
    }
    // A mixed-case address with a wrong checksum is a typo, refused the same way.
    const typo = seeded('DEMOTM05').address.replace(/[a-f]/, (c) => c.toUpperCase());
    expect(typo).not.toBe(seeded('DEMOTM05').address);
    expectRefused(await teamPage(app, viaTm02, `?of=${typo}`), ApiCode.invalidParameters, 'of');
    expect(envelope<TeamPage>(await teamPage(app, viaTm02, `?of=${seeded('DEMOTM05').address}`)).result?.total).toBe(0);
  });

  it('seeding the demo team again changes nothing', async () => {
    await seed(ctx.db, { demoTeam: true });
    await expectNoDbChange(ctx.db, () => seed(ctx.db, { demoTeam: true }));
  });

  it('pages in a stable order; past the end is an empty page with the same total', async () => {
    await seed(ctx.db, { demoTeam: true });
    const app = await ctx.app();
    const token = await tokenOf(SEED_INVITER.inviteCode);
    const pages = [];
    for (const page of [1, 2, 3]) pages.push(envelope<TeamPage>(await teamPage(app, token, `?page=${page}&pageSize=1`)).result);
    expect(pages.map((page) => page?.list.map((m) => m.address))).toEqual([[seeded('DEMOTM01').address], [seeded('DEMOTM02').address], []]);
    expect(pages.map((page) => [page?.total, page?.page, page?.pageSize])).toEqual([
      [2, 1, 1],
      [2, 2, 1],
      [2, 3, 1],
    ]);
    expect(envelope<TeamPage>(await teamPage(app, token, '?page=900000000&pageSize=100')).result).toEqual({
      list: [],
      total: 2,
      page: 900000000,
      pageSize: 100,
    });
    const last = Number.MAX_SAFE_INTEGER;
    expect(envelope<TeamPage>(await teamPage(app, token, `?page=${last}&pageSize=100`)).result).toEqual({ list: [], total: 2, page: last, pageSize: 100 });
  });

  it('a newly signed-in member has an empty team', async () => {
    const app = await ctx.app();
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    expect(envelope<TeamPage>(await teamPage(app, token)).result).toEqual({ list: [], total: 0, page: 1, pageSize: 20 });
    expect(envelope(await search(app, token, accounts.alice.address.slice(2, 10))).result).toEqual({ list: [] });
  });

  it('a member that brings its own downline when it binds brings it at the right levels', async () => {
    const app = await ctx.app();
    const bob = await signInBound(app, accounts.bob, ctx.clock.now());
    const [bobRow] = await ctx.db.select({ code: members.inviteCode }).from(members).where(eq(members.address, accounts.bob.address));
    // carol stays unbound while dave binds to her; then carol binds to bob, bringing dave along.
    const [carol] = await ctx.db.insert(members).values({ address: accounts.carol.address, inviteCode: 'CAROL001' }).returning({ id: members.id });
    const [dave] = await ctx.db.insert(members).values({ address: accounts.dave.address, inviteCode: 'DAVE0001' }).returning({ id: members.id });
    if (!carol || !dave || !bobRow) throw new Error('members not created');
    expect(await ctx.db.transaction((tx) => bindRecommender(tx, dave.id, 'CAROL001'))).toBe('bound');
    expect(await ctx.db.transaction((tx) => bindRecommender(tx, carol.id, bobRow.code))).toBe('bound');

    const bobTeam = envelope<TeamPage>(await teamPage(app, bob)).result;
    expect(bobTeam?.list.map((m) => [m.address, m.level, m.teamSize])).toEqual([[accounts.carol.address, 1, 1]]);
    expect(envelope<TeamPage>(await teamPage(app, bob, `?of=${accounts.carol.address}`)).result?.list.map((m) => [m.address, m.level])).toEqual([
      [accounts.dave.address, 2],
    ]);
    const root = await tokenOf(SEED_INVITER.inviteCode);
    expect(envelope<TeamPage>(await teamPage(app, root, `?of=${accounts.carol.address}`)).result?.list.map((m) => [m.address, m.level])).toEqual([
      [accounts.dave.address, 3],
    ]);
    expect(await found(app, bob, accounts.dave.address.slice(-6))).toEqual([accounts.dave.address]);
  });

  it('refuses a request without a token (1002)', async () => {
    const app = await ctx.app();
    expectRefused(await app.inject({ method: 'GET', url: '/api/member/team' }), ApiCode.notSignedIn);
    expectRefused(await app.inject({ method: 'GET', url: '/api/member/team/search?keyword=abcd' }), ApiCode.notSignedIn);
  });

  it.each([
    ['page 0', '?page=0', 'page'],
    ['a page that is not a number', '?page=two', 'page'],
    ['pageSize 0', '?pageSize=0', 'pageSize'],
    ['pageSize over 100', '?pageSize=101', 'pageSize'],
    ['of that is not an address', '?of=0x1234', 'of'],
  ])('team: %s → 1001', async (_name, query, field) => {
    const app = await ctx.app();
    const token = await tokenOf(SEED_INVITER.inviteCode);
    expectRefused(await teamPage(app, token, query), ApiCode.invalidParameters, field);
  });

  it('search finds members anywhere in the downline by a fragment, any case, with 0x at the start only', async () => {
    await seed(ctx.db, { demoTeam: true });
    const app = await ctx.app();
    const root = await tokenOf(SEED_INVITER.inviteCode);
    const frank = seeded('DEMOTM06').address; // level 3
    const middle = frank.slice(12, 20);
    expect(await found(app, root, middle)).toEqual([frank]);
    expect(await found(app, root, middle.toUpperCase())).toEqual([frank]);
    expect(await found(app, root, middle.toLowerCase())).toEqual([frank]);
    expect(await found(app, root, frank)).toEqual([frank]);
    expect(await found(app, root, frank.toLowerCase())).toEqual([frank]);
    expect(await found(app, root, frank.slice(2))).toEqual([frank]);
    expect(await found(app, root, `0X${frank.slice(2, 8)}`)).toEqual([frank]);
    expect(await found(app, root, frank.slice(-4))).toEqual([frank]);
    // With 0x the digits must start the address: the same middle digits behind 0x find nobody.
    expect(await found(app, root, `0x${middle}`)).toEqual([]);
  });

  it('search never answers with a member outside the downline, nor the caller', async () => {
    await seed(ctx.db, { demoTeam: true });
    const app = await ctx.app();
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    const viaTm02 = await tokenOf('DEMOTM02');
    const tm05 = seeded('DEMOTM05').address;
    // DEMOTM02's downline is DEMOTM05 alone: its sibling branch, its recommender and outsiders stay out.
    expect(await found(app, viaTm02, tm05.slice(10, 16))).toEqual([tm05]);
    for (const outside of [seeded('DEMOTM01'), seeded('DEMOTM06'), seeded('DEMOTM02')]) {
      expect(await found(app, viaTm02, outside.address.slice(2))).toEqual([]);
    }
    expect(await found(app, viaTm02, SEED_INVITER.address.slice(2))).toEqual([]);
    expect(await found(app, viaTm02, accounts.alice.address.slice(2))).toEqual([]);
    // alice is in the root's downline but not in DEMOTM02's; she finds nobody of the seeded team.
    expect(await found(app, alice, seeded('DEMOTM05').address.slice(2))).toEqual([]);
    expect(await found(app, await tokenOf(SEED_INVITER.inviteCode), accounts.alice.address.slice(2))).toEqual([accounts.alice.address]);
  });

  it('search answers with the same fields as the team page', async () => {
    await seed(ctx.db, { demoTeam: true });
    const app = await ctx.app();
    const body = envelope<{ list: TeamMember[] }>(await search(app, await tokenOf(SEED_INVITER.inviteCode), seeded('DEMOTM01').address));
    expect(body.result?.list).toEqual([
      { address: seeded('DEMOTM01').address, level: 1, teamSize: 3, directCount: 2, joinedAt: seeded('DEMOTM01').createdAt.toISOString() },
    ]);
    expect(TEAM_SEARCH_LIMIT).toBe(100);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['3 digits', 'abc'],
    ['0x and 3 digits', '0xabc'],
    ['0x alone', '0x'],
    ['41 digits', 'a'.repeat(41)],
    ['not hex', 'zzzz'],
    ['hex with a space', 'ab cd'],
    ['SQL', "abcd' OR '1'='1"],
    ['SQL with a comment', 'abcd; DROP TABLE members; --'],
    ['a LIKE pattern', '%%%%'],
    ['HTML', '<script>alert(1)</script>'],
    ['HTML around hex', '<b>abcd</b>'],
    ['unicode digits', '１２３４'],
  ])('search: a keyword %s → 1001 naming keyword, nothing written', async (_name, keyword) => {
    const app = await ctx.app();
    const token = await tokenOf(SEED_INVITER.inviteCode);
    const response = await expectNoDbChange(ctx.db, () =>
      app.inject({ method: 'GET', url: '/api/member/team/search', query: keyword === undefined ? {} : { keyword }, headers: authHeaders(token) }),
    );
    expectRefused(response, ApiCode.invalidParameters, 'keyword');
  });
});
