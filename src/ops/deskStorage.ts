/**
 * The desk's storage. The desk keeps nothing of its session in the page's reach (the session is an HttpOnly cookie,
 * its CSRF token lives in memory); earlier desks kept their token and operator in localStorage under keys of their
 * own, which the desk now clears at start. Never throws (private mode, a full store).
 */

/** The keys earlier desks kept the session under (never the member's: src/storage/keys.ts). */
export const STORED_DESK_SESSION_KEYS = ['OPS_TOKEN', 'OPS_OPERATOR'] as const;

export interface DeskStorage {
  remove(key: string): void;
}

/**
 * The desk's storage over a Storage (localStorage by default).
 *
 * @example const storage = createDeskStorage(); forgetStoredDeskSession(storage);
 */
export function createDeskStorage(store: Pick<Storage, 'removeItem'> | undefined = globalThis.localStorage): DeskStorage {
  return {
    remove: (key) => {
      try {
        store?.removeItem(key);
      } catch {
        // Nothing to clear in a store that cannot be written.
      }
    },
  };
}

/**
 * Clears what earlier desks stored of their session: a token a script could read, now refused by the server anyway.
 *
 * @example forgetStoredDeskSession(createDeskStorage());
 */
export function forgetStoredDeskSession(storage: DeskStorage): void {
  for (const key of STORED_DESK_SESSION_KEYS) storage.remove(key);
}
