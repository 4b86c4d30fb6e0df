/**
 * The real side of the wallet machine: provider discovery, wallet requests through viem and provider events.
 * The machine only knows provider ids; this module keeps the provider objects found by the last discovery.
 */
import { fromCallback, fromPromise } from 'xstate';
import type { EventObject } from 'xstate';
import { createWalletMachine } from '../../machines/wallet/walletMachine';
import type { AddChainParameters, ProviderInfo } from '../../machines/wallet/walletMachine';
import type { ChainParams } from '../../api-schema/dapp';
import type { DiscoveredProvider, Eip1193Provider } from '../wallet/types';
import type { WalletRequests } from '../wallet/walletRequests';
import { provideBuilt } from '../../machines/shared/provideBuilt';

/** viem and the request wrapper load with the first wallet request, not with the first screen. */
const loadWalletRuntime = () => import('../wallet/walletRuntime');

export interface WalletLogger {
  debug(...args: unknown[]): void;
  warn(...args: unknown[]): void;
}

export interface WalletActorsParameters {
  /** Finds the injected wallets; the app passes the on-demand import of src/wallet/discovery. */
  loadProviders: () => Promise<DiscoveredProvider[]>;
  /** Calls onFound once a wallet appears in the page (src/wallet/discovery watchForProviders); returns a stop. */
  watchProviders: (onFound: () => void) => () => void;
  logger?: WalletLogger;
  /** Per-request wallet timeout; the machine has its own overall one. */
  requestTimeoutMs?: number;
  /** Keeps the wallet the member connected (its id, an EIP-6963 rdns) for the next start; none by default. */
  rememberedWallet?: RememberedWallet;
}

/** Where the wallet the member connected last is kept between visits. */
export interface RememberedWallet {
  remember(providerId: string): void;
  forget(): void;
}

/** The wallet requests of the provider the member chose, for the sign-in actors. */
export interface WalletSession {
  requestsFor(providerId: string): Promise<WalletRequests>;
  /** The provider object itself, for what the wallet requests do not cover (a token transfer: the top-up sheet). */
  providerFor(providerId: string): Eip1193Provider | undefined;
}

/**
 * Provides the wallet machine with its real actors and actions.
 *
 * @param parameters how to find wallets, and the logger
 * @returns the provided machine and the session used by sign-in to reach the same wallet
 * @example const { machine, session } = provideWalletMachine({ loadProviders, watchProviders });
 */
export function provideWalletMachine({ loadProviders, watchProviders, logger = console, requestTimeoutMs = 0, rememberedWallet }: WalletActorsParameters) {
  const providers = new Map<string, DiscoveredProvider>();
  const requests = new Map<string, WalletRequests>();
  const session: WalletSession = {
    async requestsFor(providerId) {
      const runtime = await loadWalletRuntime();
      const found = providers.get(providerId);
      if (!found) throw new runtime.ProviderNotFoundError();
      let forProvider = requests.get(providerId);
      if (!forProvider) {
        forProvider = runtime.createWalletRequests(found.provider, { timeoutMs: requestTimeoutMs });
        requests.set(providerId, forProvider);
      }
      return forProvider;
    },
    providerFor: (providerId) => providers.get(providerId)?.provider,
  };
  const machine = provideBuilt(createWalletMachine(), {
    actors: {
      findProviders: fromPromise<ProviderInfo[]>(async () => {
        const found = await loadProviders();
        providers.clear();
        requests.clear();
        for (const provider of found) providers.set(provider.id, provider);
        return found.map(({ id, name, icon }) => (icon ? { id, name, icon } : { id, name }));
      }),
      readAccounts: fromPromise<string[], { providerId: string }>(async ({ input }) => (await session.requestsFor(input.providerId)).getAccounts()),
      requestAccounts: fromPromise<string[], { providerId: string }>(async ({ input }) =>
        (await session.requestsFor(input.providerId)).requestAccounts(),
      ),
      readChainId: fromPromise<unknown, { providerId: string }>(async ({ input }) => (await session.requestsFor(input.providerId)).getChainId()),
      switchChain: fromPromise<null, { providerId: string; chainId: number }>(async ({ input }) => {
        await (await session.requestsFor(input.providerId)).switchChain(input.chainId);
        return null;
      }),
      addChain: fromPromise<null, { providerId: string; chainId: number; chainParams: AddChainParameters }>(async ({ input }) => {
        await (await session.requestsFor(input.providerId)).addChain(input.chainId, input.chainParams as ChainParams);
        return null;
      }),
      listenToProvider: fromCallback<EventObject, { providerId: string }>(({ sendBack, input }) => {
        const found = providers.get(input.providerId);
        if (!found) return undefined;
        // The runtime is already loaded: listening starts only after a wallet request answered.
        let unsubscribe: (() => void) | undefined;
        let stopped = false;
        void loadWalletRuntime().then((runtime) => {
          if (!stopped) unsubscribe = runtime.subscribeToProvider(found.provider, sendBack);
        });
        return () => {
          stopped = true;
          unsubscribe?.();
        };
      }),
      watchForProviders: fromCallback<EventObject>(({ sendBack }) => watchProviders(() => sendBack({ type: 'provider.detected' }))),
    },
    actions: {
      reportNoAccounts: () => logger.debug('No accounts returned'),
      // No wallet in the page is what every plain browser has, not a fault: logged at debug level, as the spec logs
      // 'No accounts returned' (and a warning costs a phone's start-up a few ms when a debugger listens).
      reportNoWallet: ({ context }) => logger.debug('wallet:', context.error),
      reportError: ({ context }) => logger.warn('wallet:', context.error),
      rememberProvider: (_, params: { providerId: string | null }) => {
        if (params.providerId) rememberedWallet?.remember(params.providerId);
      },
      forgetProvider: () => rememberedWallet?.forget(),
    },
  });
  return { machine, session };
}
