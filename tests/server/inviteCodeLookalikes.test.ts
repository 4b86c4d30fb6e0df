/**
 * Invite codes are read aloud and typed from posters: new codes use Crockford's base32 (no I, L, O or U), and a
 * code typed with a look-alike (O for 0, I or L for 1) still finds its member, through migration 0010's index.
 * An exact code always wins; two members a typed code could both mean get nobody, never the wrong one.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { members } from '../../server/db/schema';
import { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH, lookalikeKey, randomInviteCode } from '../../server/members/inviteCode';
import { describeWithDatabases } from './support/harness';
import { accounts, authHeaders, envelope, signIn } from './support/memberSignIn';

describe('invite code alphabet', () => {
  it("behavior: new codes are 8 of Crockford's base32 digits, never I, L, O or U", () => {
    expect(INVITE_CODE_ALPHABET).toHaveLength(32);
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const code = randomInviteCode();
      expect(code).toMatch(new RegExp(`^[${INVITE_CODE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`));
      for (const char of code) seen.add(char);
    }
    expect([...seen].sort().join('')).toBe(INVITE_CODE_ALPHABET);
    expect(INVITE_CODE_ALPHABET).not.toMatch(/[ILOU]/);
  });

  it.each([
    ['9DS0I86B', '9DS0186B'],
    ['9DSO186B', '9DS0186B'],
    ['9DS0L86B', '9DS0186B'],
    ['DEMO2026', 'DEM02026'],
  ])('behavior: lookalikeKey(%s) = %s', (code, key) => {
    expect(lookalikeKey(code)).toBe(key);
  });
});

describeWithDatabases('invite codes typed with look-alikes', (ctx) => {
  let nextAddress = 0x1000;
  async function memberWithCode(inviteCode: string): Promise<number> {
    nextAddress += 1;
    const address = `0x${nextAddress.toString(16).padStart(40, '0')}`;
    const [row] = await ctx.db.insert(members).values({ address, inviteCode, isRoot: true }).returning({ id: members.id });
    if (!row) throw new Error('no member inserted');
    return row.id;
  }

  async function bindAlice(typed: string): Promise<{ code: number; recommenderId: number | null }> {
    const app = await ctx.app();
    const { auth } = await signIn(app, accounts.alice, ctx.clock.now());
    const response = await app.inject({ method: 'POST', url: '/api/member/bindRecommendRelation', headers: authHeaders(auth), payload: { inviteCode: typed } });
    const [alice] = await ctx.db.select({ recommenderId: members.recommenderId }).from(members).where(eq(members.address, accounts.alice.address));
    return { code: envelope(response).code, recommenderId: alice?.recommenderId ?? null };
  }

  it.each([
    ['O typed for 0', '9DSOI86B'],
    ['1 typed for I', '9DS0186B'],
    ['L typed for I, in lower case', '9ds0l86b'],
  ])('behavior: %s finds the member of 9DS0I86B', async (_name, typed) => {
    const inviter = await memberWithCode('9DS0I86B');
    expect(await bindAlice(typed)).toEqual({ code: 0, recommenderId: inviter });
  });

  it('behavior: the exact code wins over a look-alike of another member', async () => {
    const withZero = await memberWithCode('AB0C1234');
    const withO = await memberWithCode('ABOC1234');
    expect(withZero).not.toBe(withO);
    expect(await bindAlice('ABOC1234')).toEqual({ code: 0, recommenderId: withO });
  });

  it('behavior: a typed code two members could both mean binds nobody', async () => {
    await memberWithCode('AB0C1234');
    await memberWithCode('ABOC1234');
    expect(await bindAlice('ABOCI234')).toEqual({ code: ApiCode.inviteCodeUnknown, recommenderId: null });
  });

  it('behavior: existing codes keep working as they are, and an unknown one is still unknown', async () => {
    expect((await bindAlice('DEMO2026')).code).toBe(0);
    const app = await ctx.app();
    const { auth } = await signIn(app, accounts.bob, ctx.clock.now());
    const response = await app.inject({ method: 'POST', url: '/api/member/bindRecommendRelation', headers: authHeaders(auth), payload: { inviteCode: 'NOSUCH00' } });
    expect(envelope(response).code).toBe(ApiCode.inviteCodeUnknown);
  });
});
