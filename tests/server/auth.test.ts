/** Sign-in area: loginNonce, memberSignLogin, bindRecommendRelation, logout, on every database target. */
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiCode } from '../../api-schema/codes';
import { issueNonce, sweepExpiredNonces, SWEEP_EVERY } from '../../server/auth/nonces';
import { queryRows } from '../../server/db/client';
import { members, nonces, tokens, treeJoins } from '../../server/db/schema';
import { exactDirectCount, exactTeamSize } from '../../server/members/teamCounts';
import { expectNoDbChange, expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { SEED_INVITER } from '../../server/seed/content';
import {
  accounts,
  authHeaders,
  buildMessage,
  envelope,
  postSignLogin,
  requestNonce,
  signIn,
  signInBound,
  type SignedIn,
} from './support/memberSignIn';

const MINUTE = 60_000;

describeWithDatabases('loginNonce', (ctx) => {
  it('issues a 128-bit single-use nonce valid 5 minutes, stored for the checksummed address', async () => {
    const app = await ctx.app();
    const response = await app.inject({ method: 'GET', url: '/api/member/loginNonce', query: { address: accounts.alice.address.toLowerCase() } });
    expect(response.statusCode).toBe(200);
    const body = envelope<{ nonce: string; issuedAt: string; expirationTime: string }>(response);
    expect(body.code).toBe(0);
    expect(body.result?.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(body.result?.issuedAt).toBe(ctx.clock.now().toISOString());
    expect(body.result?.expirationTime).toBe(new Date(ctx.clock.now().getTime() + 5 * MINUTE).toISOString());
    const [row] = await ctx.db.select().from(nonces).where(eq(nonces.value, body.result?.nonce ?? ''));
    expect(row?.address).toBe(accounts.alice.address);
    expect(row?.usedAt).toBeNull();
  });

  it('never issues the same nonce twice', async () => {
    const app = await ctx.app();
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) seen.add(await requestNonce(app, accounts.alice.address));
    expect(seen.size).toBe(20);
  });

  it('issues nonces asked for at once (one batch, one statement): each distinct, stored for its own address, and each signs in', async () => {
    const app = await ctx.app();
    const wallets = [accounts.alice, accounts.bob, accounts.carol, accounts.alice, accounts.bob, accounts.carol];
    const issued = await Promise.all(wallets.map((wallet) => requestNonce(app, wallet.address)));
    expect(new Set(issued).size).toBe(wallets.length);
    const rows = await ctx.db.select().from(nonces);
    expect(new Map(rows.map((row) => [row.value, row.address]))).toEqual(new Map(issued.map((nonce, index) => [nonce, wallets[index]?.address])));
    for (const [index, nonce] of issued.entries()) {
      const wallet = wallets[index] ?? accounts.alice;
      const message = buildMessage(wallet, nonce, ctx.clock.now());
      expect(envelope(await postSignLogin(app, { message, signature: await wallet.signMessage({ message }) })).code).toBe(ApiCode.ok);
    }
  });

  it.each([
    ['missing', {}],
    ['not hex', { address: '0xZZ' }],
    ['too short', { address: '0x1234' }],
    ['wrong checksum', { address: accounts.alice.address.replace(/[a-f]/, (c) => c.toUpperCase()) }],
    ['repeated', { address: [accounts.alice.address, accounts.bob.address] }],
  ])('refuses a %s address with 1001 and writes nothing', async (_name, query) => {
    const app = await ctx.app();
    const response = await expectNoDbChange(ctx.db, () => app.inject({ method: 'GET', url: '/api/member/loginNonce', query }));
    expectRefused(response, ApiCode.invalidParameters, 'address');
  });

  it('sweeps expired nonces of every address now and then, and keeps live ones', async () => {
    const app = await ctx.app();
    const old = await requestNonce(app, accounts.bob.address);
    ctx.clock.advance(5 * MINUTE + 1000);
    const live = await requestNonce(app, accounts.bob.address);
    // At most SWEEP_EVERY issues later (of any address), the expired nonce is gone; the live ones stay.
    for (let i = 0; i < SWEEP_EVERY; i++) await issueNonce(ctx.db, accounts.alice.address, ctx.clock.now());
    const left = await ctx.db.select({ value: nonces.value }).from(nonces);
    expect(left.map((row) => row.value)).not.toContain(old);
    expect(left.map((row) => row.value)).toContain(live);
    expect(left).toHaveLength(SWEEP_EVERY + 1);
  });

  it('sweepExpiredNonces deletes expired nonces, used or not, and nothing else', async () => {
    const app = await ctx.app();
    await requestNonce(app, accounts.alice.address);
    await signIn(app, accounts.bob, ctx.clock.now());
    ctx.clock.advance(MINUTE);
    const live = await requestNonce(app, accounts.carol.address);
    ctx.clock.advance(4 * MINUTE + 1000);
    expect(await sweepExpiredNonces(ctx.db, ctx.clock.now())).toBe(2);
    expect(await ctx.db.select({ value: nonces.value }).from(nonces)).toEqual([{ value: live }]);
  });

  it('answers 4290 with 429 past the rate limit, writing nothing', async () => {
    const app = await ctx.app({ rateLimits: { loginNonce: { max: 2, timeWindow: 60_000 } } });
    await requestNonce(app, accounts.alice.address);
    await requestNonce(app, accounts.alice.address);
    const response = await expectNoDbChange(ctx.db, () =>
      app.inject({ method: 'GET', url: '/api/member/loginNonce', query: { address: accounts.alice.address } }),
    );
    expectRefused(response, ApiCode.tooManyRequests);
    expect(response.headers['retry-after']).toBeDefined();
  });
});

describeWithDatabases('memberSignLogin', (ctx) => {
  async function tokenRows(memberAddress: string) {
    return ctx.db
      .select({ hash: tokens.hash, expiresAt: tokens.expiresAt })
      .from(tokens)
      .innerJoin(members, eq(members.id, tokens.memberId))
      .where(eq(members.address, memberAddress));
  }

  it('signs a new address in as an unbound member with a temporary token', async () => {
    const app = await ctx.app();
    const result = await signIn(app, accounts.alice, ctx.clock.now());
    expect(result.isFinishedBind).toBe(false);
    expect(result.auth).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [member] = await ctx.db.select().from(members).where(eq(members.address, accounts.alice.address));
    expect(member?.inviteCode).toMatch(/^[A-Z0-9]{8}$/);
    expect(member?.recommenderId).toBeNull();
    expect(member?.createdAt.toISOString()).toBe(ctx.clock.now().toISOString());

    // Only the sha256 of the token is stored, and it lives 7 days.
    const rows = await tokenRows(accounts.alice.address);
    expect(rows).toEqual([
      { hash: createHash('sha256').update(result.auth).digest('hex'), expiresAt: new Date(ctx.clock.now().getTime() + 7 * 24 * 60 * MINUTE) },
    ]);
    const [nonce] = await ctx.db.select().from(nonces);
    expect(nonce?.usedAt?.toISOString()).toBe(ctx.clock.now().toISOString());
  });

  it('binds a valid invite code (any case) in the same sign-in', async () => {
    const app = await ctx.app();
    const result = await signIn(app, accounts.alice, ctx.clock.now(), { inviteCode: 'demo2026' });
    expect(result.isFinishedBind).toBe(true);
    const [inviter] = await ctx.db.select().from(members).where(eq(members.inviteCode, SEED_INVITER.inviteCode));
    const [alice] = await ctx.db.select().from(members).where(eq(members.address, accounts.alice.address));
    expect(alice?.recommenderId).toBe(inviter?.id);
  });

  it('still signs in, unbound, when the invite code is unknown', async () => {
    const app = await ctx.app();
    const result = await signIn(app, accounts.alice, ctx.clock.now(), { inviteCode: 'NOSUCH00' });
    expect(result.isFinishedBind).toBe(false);
  });

  it('gives a new token at every sign-in and keeps one member per address', async () => {
    const app = await ctx.app();
    const first = await signIn(app, accounts.alice, ctx.clock.now(), { inviteCode: 'DEMO2026' });
    ctx.clock.advance(MINUTE);
    const second = await signIn(app, accounts.alice, ctx.clock.now());
    expect(second.auth).not.toBe(first.auth);
    expect(second.isFinishedBind).toBe(true);
    expect(await ctx.db.select().from(members).where(eq(members.address, accounts.alice.address))).toHaveLength(1);
    for (const token of [first.auth, second.auth]) {
      const me = await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) });
      expect(envelope(me).code).toBe(0);
    }
  });

  it('signs a new address in twice at once with two nonces: one member, two tokens', async () => {
    const app = await ctx.app();
    const payloads = [];
    for (let i = 0; i < 2; i++) {
      const message = buildMessage(accounts.alice, await requestNonce(app, accounts.alice.address), ctx.clock.now());
      payloads.push({ message, signature: await accounts.alice.signMessage({ message }) });
    }
    const responses = await Promise.all(payloads.map((payload) => postSignLogin(app, payload)));
    expect(responses.map((r) => envelope(r).code)).toEqual([0, 0]);
    expect(await ctx.db.select().from(members).where(eq(members.address, accounts.alice.address))).toHaveLength(1);
    expect(await tokenRows(accounts.alice.address)).toHaveLength(2);
  });

  it('counts the root inviter as bound', async () => {
    const app = await ctx.app();
    // The seeded root's key is unknown, so give the root alice's address.
    await ctx.db.update(members).set({ address: accounts.alice.address }).where(eq(members.inviteCode, SEED_INVITER.inviteCode));
    const result = await signIn(app, accounts.alice, ctx.clock.now(), { inviteCode: 'DEMO2026' });
    expect(result.isFinishedBind).toBe(true);
    const [root] = await ctx.db.select().from(members).where(eq(members.address, accounts.alice.address));
    expect(root?.recommenderId).toBeNull();
  });

  it('accepts a wallet clock up to 60 s ahead', async () => {
    const app = await ctx.app();
    const result = await signIn(app, accounts.alice, ctx.clock.now(), { overrides: { issuedAt: new Date(ctx.clock.now().getTime() + 50_000) } });
    expect(result.auth).toBeTruthy();
  });

  it('without SIWE_DOMAIN, takes a loopback Host as the domain but never a foreign one (signInDomain.test.ts has the rest)', async () => {
    const app = await ctx.app({ siweDomain: undefined });
    const nonce = await requestNonce(app, accounts.alice.address);
    const message = buildMessage(accounts.alice, nonce, ctx.clock.now(), { domain: 'localhost:8080', uri: 'http://localhost:8080/login' });
    const signature = await accounts.alice.signMessage({ message });
    const ok = await app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { host: 'localhost:8080' }, payload: { message, signature } });
    expect(envelope(ok).code).toBe(0);

    const nonce2 = await requestNonce(app, accounts.alice.address);
    const message2 = buildMessage(accounts.alice, nonce2, ctx.clock.now(), { domain: 'evil.test', uri: 'http://evil.test/login' });
    const signature2 = await accounts.alice.signMessage({ message: message2 });
    const refused = await app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { host: 'evil.test' }, payload: { message: message2, signature: signature2 } });
    expectRefused(refused, ApiCode.signatureInvalid);
  });

  describe('refusals write nothing', () => {
    /** Issues a nonce for alice, then lets the case build the request; the DB must not move after the nonce. */
    async function refuse(build: (nonce: string) => Promise<Record<string, unknown>>) {
      const app = await ctx.app();
      const nonce = await requestNonce(app, accounts.alice.address);
      const payload = await build(nonce);
      return expectNoDbChange(ctx.db, () => postSignLogin(app, payload));
    }

    async function signed(message: string, account = accounts.alice) {
      return { message, signature: await account.signMessage({ message }) };
    }

    it.each([
      ['message missing', { signature: '0x00' }, 'message'],
      ['signature missing', { message: 'x' }, 'signature'],
      ['message not text', { message: 42, signature: '0x00' }, 'message'],
      ['message empty', { message: '', signature: '0x00' }, 'message'],
      ['signature not hex', { message: 'x', signature: 'hello' }, 'signature'],
      ['unknown field', { message: 'x', signature: '0x00', admin: true }, 'admin'],
      ['invite code malformed', { message: 'x', signature: '0x00', inviteCode: 'no spaces!' }, 'inviteCode'],
    ])('%s → 1001', async (_name, payload, field) => {
      const response = await refuse(async () => payload);
      expectRefused(response, ApiCode.invalidParameters, field);
    });

    it('a message that is not strict EIP-4361 → 1001', async () => {
      const response = await refuse(async (nonce) => {
        const message = buildMessage(accounts.alice, nonce, ctx.clock.now()).replace(accounts.alice.address, accounts.alice.address.toLowerCase());
        return signed(message);
      });
      expectRefused(response, ApiCode.invalidParameters, 'message');
    });

    it('a message with a trailing line break → 1001', async () => {
      const response = await refuse(async (nonce) => signed(`${buildMessage(accounts.alice, nonce, ctx.clock.now())}\n`));
      expectRefused(response, ApiCode.invalidParameters, 'message');
    });

    it('a signature by another key → 1005', async () => {
      const response = await refuse(async (nonce) => signed(buildMessage(accounts.alice, nonce, ctx.clock.now()), accounts.mallory));
      expectRefused(response, ApiCode.signatureInvalid);
    });

    it('a malformed signature → 1005', async () => {
      const response = await refuse(async (nonce) => ({ message: buildMessage(accounts.alice, nonce, ctx.clock.now()), signature: `0x${'ab'.repeat(64)}` }));
      expectRefused(response, ApiCode.signatureInvalid);
    });

    it.each([
      ['domain', { domain: 'evil.test' }],
      ['URI host', { uri: 'https://evil.test/login' }],
      ['chain', { chainId: 1 }],
      ['scheme', { scheme: 'http' }],
    ])('a wrong %s → 1005', async (_name, overrides) => {
      const response = await refuse(async (nonce) => signed(buildMessage(accounts.alice, nonce, ctx.clock.now(), overrides)));
      expectRefused(response, ApiCode.signatureInvalid);
    });

    it('an expired message → 1004', async () => {
      const now = ctx.clock.now();
      const response = await refuse(async (nonce) =>
        signed(buildMessage(accounts.alice, nonce, new Date(now.getTime() - MINUTE), { expirationTime: new Date(now.getTime() - 1000) })),
      );
      expectRefused(response, ApiCode.nonceInvalid);
    });

    it('a message not valid yet → 1004', async () => {
      const now = ctx.clock.now();
      const response = await refuse(async (nonce) => signed(buildMessage(accounts.alice, nonce, now, { notBefore: new Date(now.getTime() + MINUTE) })));
      expectRefused(response, ApiCode.nonceInvalid);
    });

    it('a message issued more than 5 minutes ago → 1004', async () => {
      const response = await refuse(async (nonce) => signed(buildMessage(accounts.alice, nonce, new Date(ctx.clock.now().getTime() - 6 * MINUTE))));
      expectRefused(response, ApiCode.nonceInvalid);
    });

    it('a message issued more than 60 s in the future → 1004', async () => {
      const response = await refuse(async (nonce) => signed(buildMessage(accounts.alice, nonce, new Date(ctx.clock.now().getTime() + 2 * MINUTE))));
      expectRefused(response, ApiCode.nonceInvalid);
    });

    it('a nonce that was never issued → 1004', async () => {
      const response = await refuse(async () => signed(buildMessage(accounts.alice, 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6', ctx.clock.now())));
      expectRefused(response, ApiCode.nonceInvalid);
    });

    it('a nonce issued for another address → 1004', async () => {
      const app = await ctx.app();
      const bobsNonce = await requestNonce(app, accounts.bob.address);
      const response = await refuse(async () => signed(buildMessage(accounts.alice, bobsNonce, ctx.clock.now())));
      expectRefused(response, ApiCode.nonceInvalid);
    });

    it('an expired nonce → 1004', async () => {
      const app = await ctx.app();
      const nonce = await requestNonce(app, accounts.alice.address);
      ctx.clock.advance(5 * MINUTE + 1000);
      const payload = await signed(buildMessage(accounts.alice, nonce, ctx.clock.now()));
      const response = await expectNoDbChange(ctx.db, () => postSignLogin(app, payload));
      expectRefused(response, ApiCode.nonceInvalid);
    });

    it('a replayed message → 1004', async () => {
      const app = await ctx.app();
      const nonce = await requestNonce(app, accounts.alice.address);
      const payload = await signed(buildMessage(accounts.alice, nonce, ctx.clock.now()));
      expect(envelope(await postSignLogin(app, payload)).code).toBe(0);
      const response = await expectNoDbChange(ctx.db, () => postSignLogin(app, payload));
      expectRefused(response, ApiCode.nonceInvalid);
    });

    it('a wrong chain on a stale message → 1005: the chain outranks the time', async () => {
      const response = await refuse(async (nonce) =>
        signed(buildMessage(accounts.alice, nonce, new Date(ctx.clock.now().getTime() - 6 * MINUTE), { chainId: 1 })),
      );
      expectRefused(response, ApiCode.signatureInvalid);
    });

    it('the same message with an invite code twice at once → exactly one sign-in, bound once', async () => {
      const app = await ctx.app();
      const nonce = await requestNonce(app, accounts.alice.address);
      const payload = { ...(await signed(buildMessage(accounts.alice, nonce, ctx.clock.now()))), inviteCode: 'DEMO2026' };
      const codes = (await Promise.all([postSignLogin(app, payload), postSignLogin(app, payload), postSignLogin(app, payload)])).map((r) => envelope(r).code);
      expect(codes.sort()).toEqual([0, ApiCode.nonceInvalid, ApiCode.nonceInvalid]);
      expect(await ctx.db.select().from(tokens)).toHaveLength(1);
      // One bind waits for the count fold, so the root's counts (kept plus waiting) gained exactly one member.
      expect(await ctx.db.select().from(treeJoins)).toHaveLength(1);
      const [root] = await queryRows(
        ctx.db,
        sql`SELECT ${exactTeamSize('m')} AS "teamSize", ${exactDirectCount('m')} AS "directCount" FROM ${members} m WHERE m.invite_code = ${SEED_INVITER.inviteCode}`,
        z.object({ teamSize: z.number(), directCount: z.number() }),
      );
      expect(root).toEqual({ teamSize: 1, directCount: 1 });
    });

    it('the same message twice at once → exactly one sign-in', async () => {
      const app = await ctx.app();
      const nonce = await requestNonce(app, accounts.alice.address);
      const payload = await signed(buildMessage(accounts.alice, nonce, ctx.clock.now()));
      const codes = (await Promise.all([postSignLogin(app, payload), postSignLogin(app, payload), postSignLogin(app, payload)])).map((r) => envelope(r).code);
      expect(codes.sort()).toEqual([0, ApiCode.nonceInvalid, ApiCode.nonceInvalid]);
      expect(await ctx.db.select().from(tokens)).toHaveLength(1);
    });

    it('an oversized body → 413 with 1001', async () => {
      const response = await refuse(async () => ({ message: 'x'.repeat(20 * 1024), signature: '0x00' }));
      expectRefused(response, ApiCode.invalidParameters, 'body', 413);
    });

    it('past the rate limit → 4290', async () => {
      const app = await ctx.app({ rateLimits: { memberSignLogin: { max: 1, timeWindow: 60_000 } } });
      const nonce = await requestNonce(app, accounts.alice.address);
      const payload = await signed(buildMessage(accounts.alice, nonce, ctx.clock.now()));
      expectRefused(await postSignLogin(app, { message: 'x', signature: '0x00' }), ApiCode.invalidParameters);
      const response = await expectNoDbChange(ctx.db, () => postSignLogin(app, payload));
      expectRefused(response, ApiCode.tooManyRequests);
    });
  });
});

describeWithDatabases('bindRecommendRelation', (ctx) => {
  async function bind(token: string | undefined, payload: unknown) {
    const app = await ctx.app();
    return app.inject({ method: 'POST', url: '/api/member/bindRecommendRelation', headers: token ? authHeaders(token) : {}, payload: payload as Record<string, unknown> });
  }

  async function inviteCodeOf(address: string): Promise<string> {
    const [row] = await ctx.db.select({ code: members.inviteCode }).from(members).where(eq(members.address, address));
    if (!row) throw new Error(`no member ${address}`);
    return row.code;
  }

  it('binds the temporary token’s member; the same token then opens member endpoints', async () => {
    const app = await ctx.app();
    const { auth }: SignedIn = await signIn(app, accounts.alice, ctx.clock.now());
    const before = await app.inject({ method: 'GET', url: '/api/member/getRentValidBindMemberAddress', headers: authHeaders(auth) });
    expectRefused(before, ApiCode.bindRequired);

    const response = await bind(auth, { inviteCode: 'DEMO2026' });
    expect(response.statusCode).toBe(200);
    expect(envelope(response)).toEqual({ code: 0 });

    const after = await app.inject({ method: 'GET', url: '/api/member/getRentValidBindMemberAddress', headers: authHeaders(auth) });
    expect(envelope(after)).toEqual({ code: 0, result: { list: [] } });
    const me = envelope<{ recommender: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(auth) }));
    expect(me.result?.recommender).toBe(SEED_INVITER.address);
  });

  it('binds to any member’s code, case-insensitively', async () => {
    const app = await ctx.app();
    await signInBound(app, accounts.alice, ctx.clock.now());
    const { auth } = await signIn(app, accounts.bob, ctx.clock.now());
    const code = await inviteCodeOf(accounts.alice.address);
    expect(envelope(await bind(auth, { inviteCode: code.toLowerCase() })).code).toBe(0);
  });

  it('an unknown code → 2001, writing nothing', async () => {
    const app = await ctx.app();
    const { auth } = await signIn(app, accounts.alice, ctx.clock.now());
    expectRefused(await expectNoDbChange(ctx.db, () => bind(auth, { inviteCode: 'NOSUCH00' })), ApiCode.inviteCodeUnknown);
  });

  it('already bound → 2002, writing nothing', async () => {
    const app = await ctx.app();
    const auth = await signInBound(app, accounts.alice, ctx.clock.now());
    await signInBound(app, accounts.bob, ctx.clock.now());
    const bobsCode = await inviteCodeOf(accounts.bob.address);
    expectRefused(await expectNoDbChange(ctx.db, () => bind(auth, { inviteCode: bobsCode })), ApiCode.recommenderAlreadyBound);
  });

  it('own code → 2003, writing nothing', async () => {
    const app = await ctx.app();
    const { auth } = await signIn(app, accounts.alice, ctx.clock.now());
    const own = await inviteCodeOf(accounts.alice.address);
    expectRefused(await expectNoDbChange(ctx.db, () => bind(auth, { inviteCode: own })), ApiCode.bindCycle);
  });

  it('a code from one’s own downline → 2003, writing nothing', async () => {
    const app = await ctx.app();
    // alice (unbound) ← bob ← carol: alice may not bind to carol.
    const { auth } = await signIn(app, accounts.alice, ctx.clock.now());
    await signIn(app, accounts.bob, ctx.clock.now(), { inviteCode: await inviteCodeOf(accounts.alice.address) });
    await signIn(app, accounts.carol, ctx.clock.now(), { inviteCode: await inviteCodeOf(accounts.bob.address) });
    const carolsCode = await inviteCodeOf(accounts.carol.address);
    expectRefused(await expectNoDbChange(ctx.db, () => bind(auth, { inviteCode: carolsCode })), ApiCode.bindCycle);
  });

  it.each([
    ['no body', undefined, 'body'],
    ['code missing', {}, 'inviteCode'],
    ['code not text', { inviteCode: 12345678 }, 'inviteCode'],
    ['code too long', { inviteCode: 'A'.repeat(17) }, 'inviteCode'],
    ['extra field', { inviteCode: 'DEMO2026', memberId: 1 }, 'memberId'],
  ])('%s → 1001, writing nothing', async (_name, payload, field) => {
    const app = await ctx.app();
    const { auth } = await signIn(app, accounts.alice, ctx.clock.now());
    expectRefused(await expectNoDbChange(ctx.db, () => bind(auth, payload)), ApiCode.invalidParameters, field);
  });

  it('no token → 1002 (401)', async () => {
    expectRefused(await expectNoDbChange(ctx.db, () => bind(undefined, { inviteCode: 'DEMO2026' })), ApiCode.notSignedIn);
  });
});

describeWithDatabases('logout', (ctx) => {
  it('revokes only the token it is called with', async () => {
    const app = await ctx.app();
    const first = await signInBound(app, accounts.alice, ctx.clock.now());
    const { auth: second } = await signIn(app, accounts.alice, ctx.clock.now());

    const response = await app.inject({ method: 'POST', url: '/api/member/logout', headers: authHeaders(first) });
    expect(envelope(response)).toEqual({ code: 0 });
    const [row] = await ctx.db.select().from(tokens).where(eq(tokens.hash, createHash('sha256').update(first).digest('hex')));
    expect(row?.revokedAt?.toISOString()).toBe(ctx.clock.now().toISOString());

    expectRefused(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(first) }), ApiCode.notSignedIn);
    expect(envelope(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(second) })).code).toBe(0);
  });

  it('accepts an empty JSON object as body', async () => {
    const app = await ctx.app();
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    expect(envelope(await app.inject({ method: 'POST', url: '/api/member/logout', headers: authHeaders(token), payload: {} })).code).toBe(0);
  });

  it('a body with fields → 1001, token kept', async () => {
    const app = await ctx.app();
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    const response = await expectNoDbChange(ctx.db, () =>
      app.inject({ method: 'POST', url: '/api/member/logout', headers: authHeaders(token), payload: { all: true } }),
    );
    expectRefused(response, ApiCode.invalidParameters, 'all');
  });

  it('twice, or without a token → 1002', async () => {
    const app = await ctx.app();
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    await app.inject({ method: 'POST', url: '/api/member/logout', headers: authHeaders(token) });
    const again = await expectNoDbChange(ctx.db, () => app.inject({ method: 'POST', url: '/api/member/logout', headers: authHeaders(token) }));
    expectRefused(again, ApiCode.notSignedIn);
    expectRefused(await app.inject({ method: 'POST', url: '/api/member/logout' }), ApiCode.notSignedIn);
  });
});
