import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { testDappParam } from '../../tests/support/fakeApi';
import { createMemoryStorage } from '../../tests/support/memoryStorage';
import type { ApiClient } from '../api/client';
import { selectDappParam } from '../app/selectors';
import { createBrowserStorage } from '../storage/browserStorage';
import { STORAGE_KEYS } from '../storage/keys';
import { provideConfigMachine } from './configActors';

/** An API whose calls never answer, so the actor stays in `loading` with the restored config. */
const silentApi: ApiClient = { call: () => new Promise(() => {}) };

async function restore(stored: string | undefined) {
  const storage = createBrowserStorage({
    storage: createMemoryStorage(stored === undefined ? {} : { [STORAGE_KEYS.dappParam]: stored }),
    logger: { warn: () => {} },
  });
  const actor = createActor(provideConfigMachine({ api: silentApi, storage })).start();
  const snapshot = await waitFor(actor, (state) => state.matches('loading'));
  actor.stop();
  return snapshot;
}

describe('config actors: the stored DAPP_PARAM', () => {
  it('behavior: a stored config that passes the contract is the starting point, and the page can read it', async () => {
    const snapshot = await restore(JSON.stringify(testDappParam));
    expect(snapshot.context.dappParam).toEqual(testDappParam);
    expect(selectDappParam(snapshot)?.chainId).toBe(56);
  });

  it.each([
    ['absent', undefined],
    ['not JSON', '{chainId: 56'],
    ['missing the chain', JSON.stringify({ ...testDappParam, chain: undefined })],
    ['a chain id that is not a number', JSON.stringify({ ...testDappParam, chainId: '0x38' })],
  ])('behavior: a stored config that is %s counts as absent ({})', async (_case, stored) => {
    const snapshot = await restore(stored);
    expect(snapshot.context.dappParam).toEqual({});
    expect(selectDappParam(snapshot)).toBeNull();
  });
});
