import { STORAGE_KEYS } from './keys';
import type { StorageKey } from './keys';

/** The part of the Web Storage API used here; tests pass a Map-backed one. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface StorageLogger {
  warn(...args: unknown[]): void;
}

export interface CreateBrowserStorageParameters {
  /** The storage, or a function that returns it (reading `localStorage` itself can throw). Default localStorage. */
  storage?: KeyValueStorage | (() => KeyValueStorage | undefined) | undefined;
  logger?: StorageLogger | undefined;
}

/** Storage helpers that never throw: failures (private mode, quota, blocked storage) are logged and swallowed. */
export interface BrowserStorage {
  /** The stored text, or null when absent or unreadable. */
  readText(key: StorageKey): string | null;
  /** Stores text; false when the storage refused. */
  writeText(key: StorageKey, value: string): boolean;
  /** The stored JSON value, or undefined when absent or unreadable. Validate it before use. */
  readJson(key: StorageKey): unknown;
  /** Stores a value as JSON; false when the storage refused. */
  writeJson(key: StorageKey, value: unknown): boolean;
  /** Removes a key; false when the storage refused. */
  remove(key: StorageKey): boolean;
  /** DAPP_PARAM as an object; {} when absent, unreadable or not an object (spec section 3). */
  readDappParam(): Record<string, unknown>;
  /** The raw stored main token, else the raw temporary token, else null; the API client removes the quotes. */
  readAuthorization(): string | null;
}

export type CreateBrowserStorageReturnType = BrowserStorage;
/** Creating and using the storage never throws. */
export type CreateBrowserStorageErrorType = never;

function defaultStorage(): KeyValueStorage | undefined {
  return typeof localStorage === 'undefined' ? undefined : localStorage;
}

/**
 * Makes the storage helpers over localStorage (or the given storage).
 *
 * @param parameters - The storage and the logger (default localStorage and console).
 * @returns Read, write and remove helpers that never throw.
 * @example
 * const storage = createBrowserStorage();
 * storage.writeJson(STORAGE_KEYS.token, auth); // stored as "\"abc\""
 */
export function createBrowserStorage({ storage = defaultStorage, logger = console }: CreateBrowserStorageParameters = {}): CreateBrowserStorageReturnType {
  const attempt = <T>(what: string, key: StorageKey, fallback: T, action: (store: KeyValueStorage) => T): T => {
    try {
      const store = typeof storage === 'function' ? storage() : storage;
      if (!store) return fallback;
      return action(store);
    } catch (error) {
      logger.warn(`storage: could not ${what} ${key}`, error);
      return fallback;
    }
  };

  const readText = (key: StorageKey) => attempt('read', key, null, (store) => store.getItem(key));
  const readJson = (key: StorageKey): unknown => {
    const text = readText(key);
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      logger.warn(`storage: ${key} is not JSON`, error);
      return undefined;
    }
  };
  const hasToken = (raw: string | null): raw is string => raw !== null && raw.replaceAll('"', '').trim() !== '';

  return {
    readText,
    writeText: (key, value) => attempt('write', key, false, (store) => (store.setItem(key, value), true)),
    readJson,
    writeJson: (key, value) => {
      let text: string | undefined;
      try {
        text = JSON.stringify(value);
      } catch (error) {
        logger.warn(`storage: ${key} value cannot be written as JSON`, error);
        return false;
      }
      // JSON.stringify(undefined) gives undefined: there is nothing to keep, so drop the key.
      if (text === undefined) return attempt('remove', key, false, (store) => (store.removeItem(key), true));
      const json = text;
      return attempt('write', key, false, (store) => (store.setItem(key, json), true));
    },
    remove: (key) => attempt('remove', key, false, (store) => (store.removeItem(key), true)),
    readDappParam: () => {
      const value = readJson(STORAGE_KEYS.dappParam);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {};
    },
    readAuthorization: () => {
      const token = readText(STORAGE_KEYS.token);
      if (hasToken(token)) return token;
      const tempToken = readText(STORAGE_KEYS.tempToken);
      return hasToken(tempToken) ? tempToken : null;
    },
  };
}
