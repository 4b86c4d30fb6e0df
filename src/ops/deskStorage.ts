/**
 * The desk's storage: its own keys in localStorage, apart from the member's (src/storage/keys.ts), so a member
 * session and an operator session in one browser never mix. Never throws (private mode, a full store).
 */

/** The desk's keys. */
export const OPS_STORAGE_KEYS = { token: 'OPS_TOKEN', operator: 'OPS_OPERATOR' } as const;
export type OpsStorageKey = (typeof OPS_STORAGE_KEYS)[keyof typeof OPS_STORAGE_KEYS];

export interface DeskStorage {
  readJson(key: OpsStorageKey): unknown;
  writeJson(key: OpsStorageKey, value: unknown): void;
  remove(key: OpsStorageKey): void;
}

/**
 * The desk's storage over a Storage (localStorage by default).
 *
 * @example const storage = createDeskStorage(); storage.writeJson(OPS_STORAGE_KEYS.token, token);
 */
export function createDeskStorage(store: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined = globalThis.localStorage): DeskStorage {
  const attempt = <T>(fallback: T, action: () => T): T => {
    try {
      return store ? action() : fallback;
    } catch {
      return fallback;
    }
  };
  return {
    readJson: (key) =>
      attempt<unknown>(null, () => {
        const text = store?.getItem(key) ?? null;
        return text === null ? null : (JSON.parse(text) as unknown);
      }),
    writeJson: (key, value) => attempt(undefined, () => store?.setItem(key, JSON.stringify(value))),
    remove: (key) => attempt(undefined, () => store?.removeItem(key)),
  };
}
