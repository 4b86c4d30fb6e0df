/** meInfo, tokens and access levels, and the member-only recipient list, on every database target. */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { meInfoSchema, type MeInfo } from '../../api-schema/member';
import { hashToken, issueToken, resolveTokenHashes, TOKEN_TTL_MS } from '../../server/auth/tokens';
import { members } from '../../server/db/schema';
import { systemAccountId } from '../../server/ledger/accounts';
import { creditMember } from '../../server/ledger/transfers';
import { SEED_INVITER } from '../../server/seed/content';
import { expectNoDbChange, expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { accounts, authHeaders, envelope, signIn, signInBound } from './support/memberSignIn';

describeWithDatabases('meInfo', (ctx) => {
  async function me(token: string, headers: Record<string, string> = authHeaders(token)) {
    const app = await ctx.app();
    return app.inject({ method: 'GET', url: '/api/member/meInfo', headers });
  }

  async function inviteCodeOf(address: string): Promise<string> {
    const [row] = await ctx.db.select({ code: members.inviteCode }).from(members).where(eq(members.address, address));
    return row?.code ?? '';
  }

  it('returns the member with its recommender, balances as decimal strings and team counts', async () => {
    const app = await ctx.app();
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    const aliceCode = await inviteCodeOf(accounts.alice.address);
    // alice ← bob ← carol, alice ← dave: a team of 3, 2 of them direct.
    await signInBound(app, accounts.bob, ctx.clock.now(), aliceCode);
    await signInBound(app, accounts.carol, ctx.clock.now(), await inviteCodeOf(accounts.bob.address));
    await signInBound(app, accounts.dave, ctx.clock.now(), aliceCode);
    const [aliceRow] = await ctx.db.update(members).set({ level: 2 }).where(eq(members.address, accounts.alice.address)).returning({ id: members.id });
    await ctx.db.transaction(async (tx) => {
      const base = { type: 'reward', memberId: aliceRow?.id ?? 0, now: ctx.clock.now() } as const;
      await creditMember(tx, { ...base, asset: 'CREDIT', systemAccountId: systemAccountId('CREDIT', 'issuance'), amount: 12_500_000n });
      await creditMember(tx, { ...base, asset: 'WPOS', systemAccountId: systemAccountId('WPOS', 'issuance'), amount: 3n });
    });

    const response = await me(alice);
    expect(response.statusCode).toBe(200);
    const body = envelope<MeInfo>(response);
    expect(body).toEqual({
      code: 0,
      result: {
        address: accounts.alice.address,
        inviteCode: aliceCode,
        recommender: SEED_INVITER.address,
        level: 2,
        creditBalance: '12.5',
        wposBalance: '0.000003',
        teamSize: 3,
        directCount: 2,
        createdAt: ctx.clock.now().toISOString(),
      },
    });
    expect(meInfoSchema.safeParse(body.result).success).toBe(true);
  });

  it('counts the whole tree for the root', async () => {
    const app = await ctx.app();
    await signInBound(app, accounts.alice, ctx.clock.now());
    await signInBound(app, accounts.bob, ctx.clock.now(), await inviteCodeOf(accounts.alice.address));
    const [root] = await ctx.db.select().from(members).where(eq(members.inviteCode, SEED_INVITER.inviteCode));
    const token = await issueToken(ctx.db, root?.id ?? 0, ctx.clock.now());
    const body = envelope<MeInfo>(await me(token));
    expect(body.result).toMatchObject({ address: SEED_INVITER.address, inviteCode: 'DEMO2026', recommender: null, teamSize: 2, directCount: 1 });
  });

  it('answers a temporary token too, with no recommender', async () => {
    const app = await ctx.app();
    const { auth } = await signIn(app, accounts.alice, ctx.clock.now());
    const body = envelope<MeInfo>(await me(auth));
    expect(body.code).toBe(0);
    expect(body.result).toMatchObject({ recommender: null, teamSize: 0, directCount: 0, creditBalance: '0', wposBalance: '0' });
  });

  it('reads the token bare, quoted, or as a Bearer token', async () => {
    const app = await ctx.app();
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    for (const header of [token, `"${token}"`, `Bearer ${token}`, `bearer "${token}"`]) {
      expect(envelope(await me(token, { authorization: header })).code).toBe(0);
    }
  });

  it.each([
    ['missing', {}],
    ['empty', { authorization: '' }],
    ['forged', { authorization: 'A'.repeat(43) }],
    ['only quotes', { authorization: '""' }],
  ])('a %s token → 1002 (401)', async (_name, headers) => {
    const app = await ctx.app();
    await signInBound(app, accounts.alice, ctx.clock.now());
    expectRefused(await expectNoDbChange(ctx.db, () => me('', headers)), ApiCode.notSignedIn);
  });

  it('an expired token → 1002', async () => {
    const app = await ctx.app();
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    ctx.clock.advance(TOKEN_TTL_MS - 1000);
    expect(envelope(await me(token)).code).toBe(0);
    ctx.clock.advance(1000);
    expectRefused(await me(token), ApiCode.notSignedIn);
  });

  it('a revoked token → 1002', async () => {
    const app = await ctx.app();
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    await app.inject({ method: 'POST', url: '/api/member/logout', headers: authHeaders(token) });
    expectRefused(await expectNoDbChange(ctx.db, () => me(token)), ApiCode.notSignedIn);
  });

  it('reads a lone token and a batch of tokens alike (two statements, one answer)', async () => {
    const app = await ctx.app();
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    const bob = await signInBound(app, accounts.bob, ctx.clock.now(), await inviteCodeOf(accounts.alice.address));
    const revoked = await signInBound(app, accounts.carol, ctx.clock.now());
    await app.inject({ method: 'POST', url: '/api/member/logout', headers: authHeaders(revoked) });
    const lookups = [alice, bob, revoked, 'A'.repeat(43), alice].map((token) => ({ tokenHash: hashToken(token), now: ctx.clock.now() }));
    const alone = await Promise.all(lookups.map(async (lookup) => (await resolveTokenHashes(ctx.db, [lookup]))[0]));
    const batch = await resolveTokenHashes(ctx.db, lookups);
    expect(batch).toEqual(alone);
    expect(batch.map((auth) => auth?.member.address)).toEqual([accounts.alice.address, accounts.bob.address, undefined, undefined, accounts.alice.address]);
    expect(batch[1]?.member).toMatchObject({ recommender: accounts.alice.address, teamSize: 0 });
    expect(batch[0]?.member).toMatchObject({ teamSize: 1, directCount: 1 });
  });
});

describeWithDatabases('member-only endpoints', (ctx) => {
  const url = '/api/member/getRentValidBindMemberAddress';

  it('refuse a temporary token with 1003 (403), writing nothing', async () => {
    const app = await ctx.app();
    const { auth } = await signIn(app, accounts.alice, ctx.clock.now());
    const response = await expectNoDbChange(ctx.db, () => app.inject({ method: 'GET', url, headers: authHeaders(auth) }));
    expectRefused(response, ApiCode.bindRequired);
  });

  it('refuse no token with 1002', async () => {
    const app = await ctx.app();
    expectRefused(await app.inject({ method: 'GET', url }), ApiCode.notSignedIn);
  });

  it('list the whole downline for a bound member', async () => {
    const app = await ctx.app();
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    const [aliceRow] = await ctx.db.select().from(members).where(eq(members.address, accounts.alice.address));
    await signInBound(app, accounts.bob, ctx.clock.now(), aliceRow?.inviteCode);
    const [bobRow] = await ctx.db.select().from(members).where(eq(members.address, accounts.bob.address));
    await signInBound(app, accounts.carol, ctx.clock.now(), bobRow?.inviteCode);
    await signIn(app, accounts.dave, ctx.clock.now());

    const body = envelope<{ list: string[] }>(await app.inject({ method: 'GET', url, headers: authHeaders(alice) }));
    expect(body.code).toBe(0);
    expect(body.result?.list).toEqual([accounts.bob.address, accounts.carol.address].sort());
  });
});
