import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import { accountA, accountB } from '../../scripts/machineGraph/wallet.model';
import { nonceAnswer } from '../../scripts/machineGraph/auth.model';
import { createMemoryStorage } from '../../tests/support/memoryStorage';
import type { MemoryStorage } from '../../tests/support/memoryStorage';
import type { ApiClient } from '../api/client';
import { createBrowserStorage } from '../storage/browserStorage';
import { STORAGE_KEYS } from '../storage/keys';
import { provideAuthMachine, readStoredSession } from './authActors';

/** Answers of the reference server for a sign-in without invite code: a temporary token, not bound. */
const answers: Record<string, unknown> = {
  loginNonce: { code: 0, message: '', result: nonceAnswer },
  memberSignLogin: { code: 0, message: '', result: { auth: 'token-temp', isFinishedBind: false } },
  logout: { code: 0, message: '' },
};

function setUp(memory: MemoryStorage) {
  const calls: string[] = [];
  const api = {
    call: async (name: string) => {
      calls.push(name);
      return answers[name] ?? { code: -1, message: '' };
    },
  } as ApiClient;
  const storage = createBrowserStorage({ storage: memory, logger: { warn: () => {} } });
  const machine = provideAuthMachine({
    api,
    apiWithToken: () => api,
    storage,
    site: { domain: 'app.example', uri: 'https://app.example', statement: () => undefined },
    signWithWallet: async () => '0xsig',
  });
  /** Starts the auth actor as the app does after a page load: with the stored session as input. */
  const load = (): ActorRefFrom<typeof machine> => createActor(machine, { input: readStoredSession(storage) }).start();
  return { calls, load };
}

describe('auth actors: the stored session knows its address', () => {
  it('behavior: a temporary token is stored with the address it was issued to', async () => {
    const memory = createMemoryStorage();
    const auth = setUp(memory).load();
    auth.send({ type: 'user.signIn', address: accountA, chainId: 56 });
    await waitFor(auth, (snapshot) => snapshot.matches('bindRequired'));
    expect(Object.fromEntries(memory.entries)).toEqual({
      [STORAGE_KEYS.tempToken]: '"token-temp"',
      [STORAGE_KEYS.sessionAddress]: JSON.stringify(accountA),
    });
  });

  it('behavior: after a reload, the wallet moving to another account signs the temporary session out', async () => {
    const memory = createMemoryStorage();
    const { calls, load } = setUp(memory);
    const first = load();
    first.send({ type: 'user.signIn', address: accountA, chainId: 56 });
    await waitFor(first, (snapshot) => snapshot.matches('bindRequired'));
    first.stop();

    const reloaded = load();
    expect(reloaded.getSnapshot().matches('bindRequired')).toBe(true);
    expect(reloaded.getSnapshot().context.address).toBe(accountA);
    // The eager connect finds the same account first (any letter case): the session stays.
    reloaded.send({ type: 'wallet.accountChanged', address: accountA.toLowerCase() });
    expect(reloaded.getSnapshot().matches('bindRequired')).toBe(true);
    reloaded.send({ type: 'wallet.accountChanged', address: accountB });
    await waitFor(reloaded, (snapshot) => snapshot.matches('signedOut'));
    expect(calls.at(-1)).toBe('logout');
    expect(memory.entries.size).toBe(0);
  });

  it('behavior: a stored token without a known address is dropped at start, not restored', () => {
    const memory = createMemoryStorage({ [STORAGE_KEYS.tempToken]: '"token-temp"' });
    const auth = setUp(memory).load();
    expect(auth.getSnapshot().matches('signedOut')).toBe(true);
    expect(memory.entries.size).toBe(0);
  });

  it('behavior: a bound session stored before the address key still knows it from USER_INFO_STORE', () => {
    const memory = createMemoryStorage({
      [STORAGE_KEYS.token]: '"token-bound"',
      [STORAGE_KEYS.userInfo]: JSON.stringify({ address: accountA, inviteCode: 'AB12CD34' }),
    });
    const storage = createBrowserStorage({ storage: memory });
    expect(readStoredSession(storage)).toMatchObject({ token: 'token-bound', address: null, userInfo: { address: accountA } });
    const auth = setUp(memory).load();
    expect(auth.getSnapshot().matches('signedIn')).toBe(true);
    expect(auth.getSnapshot().context.address).toBe(accountA);
    auth.stop();
  });
});
