/**
 * The one way UI tests render the app (bulletproof-react apps/react-vite/src/testing/test-utils.tsx): the real root
 * actors of src/app/rootActors.ts over fakes at the outer boundaries only, a memory data router with the real
 * routes, and the providers exactly as src/main.tsx sets them up.
 *
 * Boundaries: each announced wallet is a fake EIP-1193 provider (tests/support/fakeEip1193Provider.ts), wallet
 * discovery is a loadProviders the test controls, the API is a fake fetch (tests/support/fakeApi.ts), storage is
 * in memory, translations are the bundled English locales, and delays run on xstate's SimulatedClock.
 */
import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import type { RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n as I18n, Resource } from 'i18next';
import { createMemoryRouter } from 'react-router-dom';
import { SimulatedClock } from 'xstate';
import { afterEach, expect } from 'vitest';
import { AppProviders } from '../../../src/app/AppProviders';
import { createRootActors } from '../../../src/app/rootActors';
import type { RootActors } from '../../../src/app/rootActors';
import { routes } from '../../../src/app/routes';
import { createI18n } from '../../../src/i18n/i18n';
import { createBrowserStorage } from '../../../src/storage/browserStorage';
import type { BrowserStorage } from '../../../src/storage/browserStorage';
import type { DiscoveredProvider, Eip1193Provider } from '../../../src/wallet/types';
import { accountA } from '../../../scripts/machineGraph/wallet.model';
import { createFakeApi } from '../../support/fakeApi';
import type { FakeApi } from '../../support/fakeApi';
import { createMemoryStorage } from '../../support/memoryStorage';
import type { MemoryStorage } from '../../support/memoryStorage';
import { createDeferred, createFakeEip1193Provider, providerError } from '../../support/fakeEip1193Provider';
import type { Deferred, FakeEip1193Options, FakeEip1193Provider, ProviderErrorInit } from '../../support/fakeEip1193Provider';

/** A wallet the page can find. */
export interface TestWalletSpec {
  /** EIP-6963 rdns, 'phantom' or 'injected'. */
  id: string;
  name: string;
  options?: FakeEip1193Options;
}

/** The wallets every test page has unless told otherwise: MetaMask (announced) and Phantom. */
export const defaultWallets: readonly TestWalletSpec[] = [
  { id: 'io.metamask', name: 'MetaMask' },
  { id: 'phantom', name: 'Phantom' },
];

/** Every wallet request a path test may answer step by step. */
export const walletRequestMethods = [
  'eth_accounts',
  'eth_requestAccounts',
  'eth_chainId',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'personal_sign',
] as const;
export type WalletRequestMethod = (typeof walletRequestMethods)[number];

export interface RenderAppOptions {
  /** The first URL (default /login). */
  path?: string;
  /** Connect eagerly at start, as the app does outside tests (default false). */
  connectEagerly?: boolean;
  /** The wallets in the page (default MetaMask and Phantom, both on chain 56 and granting accountA). */
  wallets?: readonly TestWalletSpec[];
  /**
   * Which wallets discovery finds, by id (default: only the first wallet), or 'manual': every discovery waits
   * until the test calls `discovery.announce(...)` or `discovery.fail(...)`.
   */
  discovery?: readonly string[] | 'manual';
  /** Wallet methods whose every call waits until the test answers it through `walletRequests.next`. */
  holdWalletRequests?: readonly WalletRequestMethod[];
  /** Storage content at start, raw strings by key (e.g. TEMP_TOKEN_STORE: '"token-temp"'). */
  stored?: Record<string, string>;
  /** Set up the fake API before the app starts (its first call, dappParam, is sent at start). */
  api?: (api: FakeApi) => void;
}

/** A wallet request held by the test. */
export interface HeldWalletRequest {
  walletId: string;
  method: string;
  params: unknown;
  /** The wallet answers with `value`. */
  resolve(value: unknown): void;
  /** The wallet throws a coded provider error. */
  reject(error: ProviderErrorInit): void;
}

export interface WalletRequestControl {
  /** Waits for the newest unanswered held request of `method` and hands it over. */
  next(method: WalletRequestMethod): Promise<HeldWalletRequest>;
}

export interface DiscoveryControl {
  /** How many times the app looked for wallets. */
  readonly calls: number;
  /** Manual discovery: the waiting look-up finds the wallets with these ids, in this order. */
  announce(ids: readonly string[]): Promise<void>;
  /** Manual discovery: the waiting look-up rejects (the detection module failed to load). */
  fail(error: unknown): Promise<void>;
  /** How many watchers for a late wallet are running (the wallet machine's searching and noWallet states). */
  readonly watchers: number;
  /** A wallet arrives late: every running watcher reports it (it fails when none is watching). */
  walletArrives(): Promise<void>;
}

export interface RenderedApp extends RenderResult {
  actors: RootActors;
  router: ReturnType<typeof createMemoryRouter>;
  /** The first wallet's fake provider. */
  provider: FakeEip1193Provider;
  /** Every wallet's fake provider, by id. */
  providers: ReadonlyMap<string, FakeEip1193Provider>;
  /** The fake provider of the wallet the machine is using now (throws when none is chosen). */
  activeProvider(): FakeEip1193Provider;
  walletRequests: WalletRequestControl;
  discovery: DiscoveryControl;
  api: FakeApi;
  clock: SimulatedClock;
  user: ReturnType<typeof userEvent.setup>;
  storage: MemoryStorage;
  browserStorage: BrowserStorage;
  i18n: I18n;
}

const localeFiles = import.meta.glob<Record<string, unknown>>('../../../locales/en/*.json', { eager: true, import: 'default' });

/** The bundled English translations, one namespace per locales/en/*.json file. */
export const englishResources: Resource = {
  en: Object.fromEntries(Object.entries(localeFiles).map(([file, content]) => [/([^/]+)\.json$/.exec(file)?.[1] ?? file, content])),
};

const silentLogger = { debug: () => undefined, warn: () => undefined, error: () => undefined };

// The first wallet request or signature of a test file loads viem on demand; on a busy 2-core CI runner that alone
// can pass Testing Library's 1 s default. It stays under vitest's 5 s test timeout, so a failure names the assertion.
configure({ asyncUtilTimeout: 3_000 });

const mounted: { stop: () => void }[] = [];

afterEach(() => {
  for (const app of mounted.splice(0)) app.stop();
});

/**
 * Renders the app at `options.path` with real actors over fake boundaries, and waits for the first page.
 *
 * @param options - Route, wallets, discovery, held wallet requests, stored values, API script.
 * @returns The rendered app with every control a test needs.
 * @example
 * const app = await renderApp({ path: '/login' });
 * await app.user.click(await screen.findByRole('button', { name: 'Connect wallet' }));
 */
export async function renderApp(options: RenderAppOptions = {}): Promise<RenderedApp> {
  const specs = options.wallets ?? defaultWallets;
  const providers = new Map<string, FakeEip1193Provider>();
  const held: (HeldWalletRequest & { taken: boolean })[] = [];
  const holds = new Set<string>(options.holdWalletRequests ?? []);

  const discovered: DiscoveredProvider[] = specs.map((spec) => {
    const fake = createFakeEip1193Provider({ chainId: 56, grantAccounts: [accountA], ...spec.options });
    providers.set(spec.id, fake);
    // What the app holds: the fake itself, except that held methods wait for the test's answer.
    const provider: Eip1193Provider = {
      request(args) {
        if (holds.has(args.method)) {
          const deferred: Deferred = fake.hang(args.method, { once: true });
          held.push({
            walletId: spec.id,
            method: args.method,
            params: args.params,
            taken: false,
            resolve: (value) => deferred.resolve(value),
            reject: (error) => deferred.reject(providerError(error)),
          });
        }
        return fake.request(args);
      },
      on: (event, listener) => fake.on(event, listener),
      removeListener: (event, listener) => fake.removeListener(event, listener),
    };
    return { id: spec.id, name: spec.name, provider };
  });
  const byIds = (ids: readonly string[]) =>
    ids.map((id) => {
      const found = discovered.find((wallet) => wallet.id === id);
      if (!found) throw new Error(`renderApp: no wallet "${id}" (wallets: ${specs.map((spec) => spec.id).join(', ')})`);
      return found;
    });

  const pendingDiscoveries: Deferred<DiscoveredProvider[]>[] = [];
  let discoveryCalls = 0;
  const loadProviders = async (): Promise<DiscoveredProvider[]> => {
    discoveryCalls += 1;
    if (options.discovery === 'manual') {
      const deferred = createDeferred<DiscoveredProvider[]>();
      pendingDiscoveries.push(deferred);
      return deferred.promise;
    }
    return byIds(options.discovery ?? specs.slice(0, 1).map((spec) => spec.id));
  };
  const nextDiscovery = () =>
    waitFor(
      () => {
        // The newest look-up: an older one was given up (a cancelled activation), and its answer reaches no one.
        const deferred = pendingDiscoveries.pop();
        if (!deferred) throw new Error('the app is not looking for wallets');
        pendingDiscoveries.length = 0;
        return deferred;
      },
      { interval: 5 },
    );

  const watchers = new Set<() => void>();
  const watchProviders = (onFound: () => void) => {
    watchers.add(onFound);
    return () => watchers.delete(onFound);
  };

  const api = createFakeApi();
  options.api?.(api);
  const storage = createMemoryStorage(options.stored);
  const browserStorage = createBrowserStorage({ storage, logger: silentLogger });
  const i18n = createI18n({ resources: englishResources, lng: 'en' });
  await i18n.init();
  const clock = new SimulatedClock();

  const actors = createRootActors({
    storage: browserStorage,
    translate: (key) => i18n.t(key),
    loadProviders,
    watchProviders,
    site: { domain: 'localhost', uri: 'http://localhost' },
    fetchImpl: api.fetch,
    logger: silentLogger,
    connectEagerly: options.connectEagerly ?? false,
    clock,
  });
  mounted.push({
    stop: () => {
      actors.stop();
      api.releaseAll();
    },
  });

  const router = createMemoryRouter(routes, { initialEntries: [options.path ?? '/login'] });
  const user = userEvent.setup();
  const rendered = render(<AppProviders i18n={i18n} actors={actors} router={router} />);
  // The first page is a lazy route module: wait until it is loaded and its heading is shown (every page has one).
  await waitFor(
    () => {
      if (!router.state.initialized || router.state.navigation.state !== 'idle') throw new Error('the first page is still loading');
      within(screen.getByRole('main')).getByRole('heading', { level: 1 });
    },
    { interval: 5 },
  );

  return {
    ...rendered,
    actors,
    router,
    provider: providers.get(specs[0]?.id ?? '') ?? createFakeEip1193Provider(),
    providers,
    activeProvider() {
      const id = actors.wallet.getSnapshot().context.providerId;
      const fake = id === null ? undefined : providers.get(id);
      if (!fake) throw new Error(`the wallet machine uses no known wallet (providerId ${String(id)})`);
      return fake;
    },
    walletRequests: {
      async next(method) {
        const found = await waitFor(
          () => {
            // The newest: a request the app gave up on (a cancelled prompt) stays unanswered, as in a real wallet.
            const entry = held.findLast((request) => request.method === method && !request.taken);
            if (!entry) throw new Error(`the app has not sent ${method}`);
            return entry;
          },
          { interval: 5 },
        );
        found.taken = true;
        return found;
      },
    },
    discovery: {
      get calls() {
        return discoveryCalls;
      },
      async announce(ids) {
        (await nextDiscovery()).resolve(byIds(ids));
      },
      async fail(error) {
        (await nextDiscovery()).reject(error);
      },
      get watchers() {
        return watchers.size;
      },
      async walletArrives() {
        await waitFor(() => expect(watchers.size).toBeGreaterThan(0), { interval: 5 });
        act(() => {
          for (const onFound of [...watchers]) onFound();
        });
      },
    },
    api,
    clock,
    user,
    storage,
    browserStorage,
    i18n,
  };
}
