import type { KeyValueStorage } from '../../src/storage/browserStorage';

/** An in-memory Web Storage, readable by the test. */
export interface MemoryStorage extends KeyValueStorage {
  readonly entries: Map<string, string>;
}

/**
 * Makes an in-memory Web Storage.
 *
 * @param initial - Entries at start.
 * @returns The storage, with its entries visible.
 */
export function createMemoryStorage(initial: Record<string, string> = {}): MemoryStorage {
  const entries = new Map(Object.entries(initial));
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}
