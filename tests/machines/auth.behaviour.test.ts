/**
 * Auth behaviour a path walk cannot judge, because the walk takes its expectations from the machine itself: a
 * session restored from storage belongs to one address (docs/decisions/0008-session-address.md).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { authMachine } from '../../machines/auth/authMachine';
import type { ApiAnswer, StoredSession, UserInfo } from '../../machines/auth/authMachine';
import { userInfoA } from '../../scripts/machineGraph/auth.model';
import { accountA, accountB } from '../../scripts/machineGraph/wallet.model';

function restore(session: StoredSession) {
  const removed: string[] = [];
  const machine = authMachine.provide({
    actors: {
      revokeToken: fromPromise(async () => ({ code: 0 })),
      // meInfo never answers here: the restored session stays in loadingProfile.
      loadUserInfo: fromPromise<ApiAnswer<UserInfo>>(() => new Promise(() => {})),
    },
    actions: { removeStoredSession: () => void removed.push('session') },
  });
  return { actor: createActor(machine, { input: session }).start(), removed };
}

describe('auth machine: a restored session and the wallet account', () => {
  it.each([
    ['a temporary token', { token: null, tempToken: 'token-temp', userInfo: null, address: accountA }, 'bindRequired'],
    ['a main token without user info', { token: 'token-bound', tempToken: 'token-bound', userInfo: null, address: accountA }, 'signedIn'],
    ['a main token with user info only', { token: 'token-bound', tempToken: null, userInfo: userInfoA, address: null }, 'signedIn'],
  ] as const)('behavior: %s is signed out when the wallet shows another account', (_, session, restored) => {
    const { actor, removed } = restore(session);
    expect(actor.getSnapshot().matches(restored)).toBe(true);
    actor.send({ type: 'wallet.accountChanged', address: accountA.toLowerCase() });
    expect(actor.getSnapshot().matches(restored)).toBe(true);
    actor.send({ type: 'wallet.accountChanged', address: accountB });
    expect(actor.getSnapshot().matches('signingOut')).toBe(true);
    expect(removed).toEqual(['session']);
    actor.stop();
  });

  it('behavior: a token whose address is unknown is removed at start instead of restored', () => {
    const { actor, removed } = restore({ token: null, tempToken: 'token-temp', userInfo: null, address: null });
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ token: null, tempToken: null, address: null });
    expect(removed).toEqual(['session']);
    actor.stop();
  });
});
