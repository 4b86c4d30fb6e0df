import { describe, expect, it, vi } from 'vitest';
import { createBrowserStorage } from './browserStorage';
import type { KeyValueStorage } from './browserStorage';
import { STORAGE_KEYS } from './keys';
import { createMemoryStorage } from '../../tests/support/memoryStorage';

const brokenStorage: KeyValueStorage = {
  getItem: () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  },
  setItem: () => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  },
  removeItem: () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  },
};

describe('STORAGE_KEYS', () => {
  it('behavior: uses the spec key names exactly, plus the session address of ADR 0008', () => {
    expect(STORAGE_KEYS).toMatchInlineSnapshot(`
      {
        "dappParam": "DAPP_PARAM",
        "language": "i18nextLng",
        "sessionAddress": "SESSION_ADDRESS",
        "tempToken": "TEMP_TOKEN_STORE",
        "token": "TOKEN_STORE",
        "userInfo": "USER_INFO_STORE",
      }
    `);
  });
});

describe('createBrowserStorage', () => {
  it('behavior: tokens are stored as JSON strings and read back raw', () => {
    const storage = createMemoryStorage();
    const store = createBrowserStorage({ storage });
    expect(store.writeJson(STORAGE_KEYS.token, 'abc123')).toBe(true);
    expect(storage.entries.get('TOKEN_STORE')).toBe('"abc123"');
    expect(store.readText(STORAGE_KEYS.token)).toBe('"abc123"');
    expect(store.readJson(STORAGE_KEYS.token)).toBe('abc123');
  });

  it('behavior: user info round-trips as JSON and can be removed', () => {
    const storage = createMemoryStorage();
    const store = createBrowserStorage({ storage });
    store.writeJson(STORAGE_KEYS.userInfo, { address: '0xabc', level: 1 });
    expect(store.readJson(STORAGE_KEYS.userInfo)).toEqual({ address: '0xabc', level: 1 });
    expect(store.remove(STORAGE_KEYS.userInfo)).toBe(true);
    expect(store.readJson(STORAGE_KEYS.userInfo)).toBeUndefined();
  });

  it('behavior: writing undefined removes the key', () => {
    const storage = createMemoryStorage({ USER_INFO_STORE: '{}' });
    createBrowserStorage({ storage }).writeJson(STORAGE_KEYS.userInfo, undefined);
    expect(storage.entries.has('USER_INFO_STORE')).toBe(false);
  });

  it.each([
    ['absent', {}],
    ['not JSON', { DAPP_PARAM: '{oops' }],
    ['JSON null', { DAPP_PARAM: 'null' }],
    ['an array', { DAPP_PARAM: '[1]' }],
  ])('behavior: DAPP_PARAM %s reads as {}', (_, initial: Record<string, string>) => {
    const logger = { warn: vi.fn() };
    expect(createBrowserStorage({ storage: createMemoryStorage(initial), logger }).readDappParam()).toEqual({});
  });

  it('behavior: DAPP_PARAM reads back the stored object', () => {
    const store = createBrowserStorage({ storage: createMemoryStorage() });
    store.writeJson(STORAGE_KEYS.dappParam, { chainId: 56 });
    expect(store.readDappParam()).toEqual({ chainId: 56 });
  });

  it('behavior: authorization is the main token, else the temporary token, else null', () => {
    const storage = createMemoryStorage({ TEMP_TOKEN_STORE: '"temp"' });
    const store = createBrowserStorage({ storage });
    expect(store.readAuthorization()).toBe('"temp"');
    storage.entries.set('TOKEN_STORE', '""');
    expect(store.readAuthorization()).toBe('"temp"');
    storage.entries.set('TOKEN_STORE', '"main"');
    expect(store.readAuthorization()).toBe('"main"');
    storage.entries.clear();
    expect(store.readAuthorization()).toBeNull();
  });

  it('behavior: storage errors (private mode, quota) are swallowed and logged', () => {
    const logger = { warn: vi.fn() };
    const store = createBrowserStorage({ storage: brokenStorage, logger });
    expect(store.readText(STORAGE_KEYS.token)).toBeNull();
    expect(store.readJson(STORAGE_KEYS.userInfo)).toBeUndefined();
    expect(store.writeJson(STORAGE_KEYS.token, 'x')).toBe(false);
    expect(store.writeText(STORAGE_KEYS.token, 'x')).toBe(false);
    expect(store.remove(STORAGE_KEYS.token)).toBe(false);
    expect(store.readDappParam()).toEqual({});
    expect(store.readAuthorization()).toBeNull();
    expect(logger.warn).toHaveBeenCalledWith('storage: could not write TOKEN_STORE', expect.any(DOMException));
  });

  it('behavior: a storage getter that throws (blocked storage) is swallowed too', () => {
    const logger = { warn: vi.fn() };
    const store = createBrowserStorage({
      storage: () => {
        throw new DOMException('Access is denied', 'SecurityError');
      },
      logger,
    });
    expect(store.readText(STORAGE_KEYS.token)).toBeNull();
    expect(store.writeText(STORAGE_KEYS.token, 'x')).toBe(false);
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });

  it('behavior: unserialisable values are refused without throwing', () => {
    const logger = { warn: vi.fn() };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(createBrowserStorage({ storage: createMemoryStorage(), logger }).writeJson(STORAGE_KEYS.userInfo, cyclic)).toBe(false);
    expect(logger.warn).toHaveBeenCalledOnce();
  });

  it('behavior: without any storage (node, blocked) reads are empty and writes refused', () => {
    const store = createBrowserStorage({ storage: () => undefined });
    expect([store.readText(STORAGE_KEYS.token), store.writeText(STORAGE_KEYS.token, 'x'), store.readDappParam()]).toEqual([null, false, {}]);
  });
});
