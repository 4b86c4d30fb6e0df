import type { Eip1193Listener, Eip1193Provider, Eip1193RequestArguments } from '../../src/wallet/types';

/**
 * A fake EIP-1193 wallet for unit and UI tests, free of any test framework. Out of the box it behaves like a
 * simple wallet (eth_chainId, eth_accounts, eth_requestAccounts, wallet_switchEthereumChain,
 * wallet_addEthereumChain, personal_sign); every method's answer can be replaced: a value, a coded error, or a
 * hang released later through a deferred. It records every request and can emit the EIP-1193 events.
 */

/** The error a wallet throws: an Error with a numeric code, as MetaMask's provider errors are. */
export interface ProviderErrorInit {
  code: number;
  message: string;
  data?: unknown;
}

export interface Deferred<T = unknown> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export type FakeAnswer =
  | { kind: 'value'; value: unknown }
  | { kind: 'error'; error: ProviderErrorInit }
  | { kind: 'hang'; deferred: Deferred };

export type FakeEvent = 'accountsChanged' | 'chainChanged' | 'connect' | 'disconnect';

export interface FakeEip1193Options {
  /** The wallet's current chain (default 1). */
  chainId?: number;
  /** Accounts eth_accounts returns (default none: not yet connected). */
  accounts?: string[];
  /** Accounts eth_requestAccounts grants (default one test address). */
  grantAccounts?: string[];
  /** Chains the wallet knows; switching to another answers 4902 (default: only the current chain). */
  knownChainIds?: number[];
}

export interface FakeEip1193Provider extends Eip1193Provider {
  /** Every request received, in order. */
  readonly requests: Eip1193RequestArguments[];
  /** The methods received, in order. */
  methods(): string[];
  /** Answers `method` with `value` (every time, or once). */
  respond(method: string, value: unknown, options?: { once?: boolean }): void;
  /** Throws a coded error for `method` (every time, or once). */
  fail(method: string, error: ProviderErrorInit, options?: { once?: boolean }): void;
  /** Leaves `method` unanswered until the returned deferred is resolved or rejected (every time, or once). */
  hang(method: string, options?: { once?: boolean }): Deferred;
  /** Back to the default behaviour for `method`. */
  reset(method: string): void;
  /** Calls every listener of `event` with `args`. */
  emit(event: FakeEvent, ...args: unknown[]): void;
  /** How many listeners `event` has. */
  listenerCount(event: string): number;
  /** The wallet state the default answers use. */
  readonly state: { chainId: number; accounts: string[]; knownChainIds: Set<number> };
}

export const fakeAccount = '0x00000000000000000000000000000000000000A1';
export const fakeSignature = `0x${'ab'.repeat(65)}`;

/**
 * Makes a deferred: a promise with its resolve and reject.
 *
 * @returns The deferred.
 * @example
 * const d = createDeferred<number>(); d.resolve(1); await d.promise // 1
 */
export function createDeferred<T = unknown>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Makes a coded provider error, as wallets throw them.
 *
 * @param init - The code, message and optional data.
 * @returns An Error carrying `code` and `data`.
 * @example
 * throw providerError({ code: 4001, message: 'User rejected the request.' })
 */
export function providerError(init: ProviderErrorInit): Error & ProviderErrorInit {
  return Object.assign(new Error(init.message), { code: init.code, data: init.data });
}

function chainIdFromParams(params: Eip1193RequestArguments['params']): number | undefined {
  const first: unknown = Array.isArray(params) ? params[0] : undefined;
  if (typeof first !== 'object' || first === null || !('chainId' in first) || typeof first.chainId !== 'string') return undefined;
  return Number.parseInt(first.chainId, 16);
}

/**
 * Creates a fake EIP-1193 wallet.
 *
 * @param options - The initial wallet state.
 * @returns The fake provider, with controls for answers and events.
 * @example
 * const wallet = createFakeEip1193Provider({ chainId: 56 });
 * wallet.fail('eth_requestAccounts', { code: 4001, message: 'User rejected the request.' });
 */
export function createFakeEip1193Provider(options: FakeEip1193Options = {}): FakeEip1193Provider {
  const state = {
    chainId: options.chainId ?? 1,
    accounts: [...(options.accounts ?? [])],
    knownChainIds: new Set(options.knownChainIds ?? [options.chainId ?? 1]),
  };
  const grantAccounts = options.grantAccounts ?? [fakeAccount];
  const answers = new Map<string, { answer: FakeAnswer; once: boolean }[]>();
  const listeners = new Map<string, Set<Eip1193Listener>>();
  const requests: Eip1193RequestArguments[] = [];

  const setAnswer = (method: string, answer: FakeAnswer, once = false) => {
    const queue = answers.get(method) ?? [];
    const oneOffs = queue.filter((entry) => entry.once);
    const persistent = queue.filter((entry) => !entry.once);
    // One-off answers are used in order before the persistent one; a new persistent answer replaces the old.
    answers.set(method, once ? [...oneOffs, { answer, once }, ...persistent] : [...oneOffs, { answer, once }]);
  };

  const emit = (event: FakeEvent, ...args: unknown[]) => {
    for (const listener of [...(listeners.get(event) ?? [])]) listener(...args);
  };

  const byDefault = (args: Eip1193RequestArguments): unknown => {
    switch (args.method) {
      case 'eth_chainId':
        return `0x${state.chainId.toString(16)}`;
      case 'eth_accounts':
        return [...state.accounts];
      case 'eth_requestAccounts':
        if (state.accounts.length === 0) {
          state.accounts = [...grantAccounts];
          emit('accountsChanged', [...state.accounts]);
        }
        return [...state.accounts];
      case 'wallet_switchEthereumChain': {
        const chainId = chainIdFromParams(args.params);
        if (chainId === undefined) throw providerError({ code: -32602, message: 'Invalid params' });
        if (!state.knownChainIds.has(chainId)) throw providerError({ code: 4902, message: `Unrecognized chain ID "0x${chainId.toString(16)}".` });
        if (chainId !== state.chainId) {
          state.chainId = chainId;
          emit('chainChanged', `0x${chainId.toString(16)}`);
        }
        return null;
      }
      case 'wallet_addEthereumChain': {
        const chainId = chainIdFromParams(args.params);
        if (chainId === undefined) throw providerError({ code: -32602, message: 'Invalid params' });
        state.knownChainIds.add(chainId);
        return null;
      }
      case 'personal_sign':
        return fakeSignature;
      default:
        throw providerError({ code: 4200, message: `The fake wallet does not support ${args.method}` });
    }
  };

  const answer = async (args: Eip1193RequestArguments): Promise<unknown> => {
    const queue = answers.get(args.method);
    const entry = queue?.[0];
    if (!queue || !entry) return byDefault(args);
    if (entry.once) queue.shift();
    switch (entry.answer.kind) {
      case 'value':
        return entry.answer.value;
      case 'error':
        throw providerError(entry.answer.error);
      case 'hang':
        return entry.answer.deferred.promise;
    }
  };

  return {
    requests,
    state,
    async request(args) {
      requests.push(args);
      return answer(args);
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
    },
    methods: () => requests.map((request) => request.method),
    respond: (method, value, { once = false } = {}) => setAnswer(method, { kind: 'value', value }, once),
    fail: (method, error, { once = false } = {}) => setAnswer(method, { kind: 'error', error }, once),
    hang(method, { once = false } = {}) {
      const deferred = createDeferred();
      setAnswer(method, { kind: 'hang', deferred }, once);
      return deferred;
    },
    reset: (method) => void answers.delete(method),
    emit,
    listenerCount: (event) => listeners.get(event)?.size ?? 0,
  };
}
