/**
 * A new member's random invite code that collides with an existing one: the sign-in statement fails whole (the
 * nonce stays unused) and sign-in draws another code, with and without an invite code to bind.
 */
import { eq } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { members, tokens } from '../../server/db/schema';
import type * as inviteCodeModule from '../../server/members/inviteCode';
import { SEED_INVITER } from '../../server/seed/content';
import { describeWithDatabases } from './support/harness';
import { accounts, signIn } from './support/memberSignIn';

const draws = vi.hoisted(() => ({ queue: [] as string[] }));

vi.mock('../../server/members/inviteCode', async (importOriginal) => {
  const original = await importOriginal<typeof inviteCodeModule>();
  return { ...original, randomInviteCode: () => draws.queue.shift() ?? original.randomInviteCode() };
});

describeWithDatabases('invite code collisions at sign-in', (ctx) => {
  it.each([
    ['without an invite code', undefined, false],
    ['with an invite code to bind', 'DEMO2026', true],
  ])('%s: draws again and signs in', async (_name, inviteCode, bound) => {
    const app = await ctx.app();
    // The first two draws are the seeded root's code; the third is fresh.
    draws.queue.push(SEED_INVITER.inviteCode, SEED_INVITER.inviteCode, 'FRESH001');
    const result = await signIn(app, accounts.alice, ctx.clock.now(), inviteCode ? { inviteCode } : {});
    expect(result.isFinishedBind).toBe(bound);
    expect(draws.queue).toEqual([]);
    const [alice] = await ctx.db.select().from(members).where(eq(members.address, accounts.alice.address));
    expect(alice?.inviteCode).toBe('FRESH001');
    expect(await ctx.db.select().from(tokens)).toHaveLength(1);
  });
});
