/**
 * Creates the app's root actors (wallet, auth, config) from the provided machines and wires them together:
 * a wallet account change or disconnect reaches auth, and an API answer of 1002 ends the session.
 * main.tsx calls it once; UI tests call it with fakes at the same boundaries.
 */
import { createActor } from 'xstate';
import type { ActorOptions, ActorRefFrom, AnyActorLogic } from 'xstate';
import type { Address } from 'viem';
import type { authMachine } from '../../machines/auth/authMachine';
import type { configMachine } from '../../machines/config/configMachine';
import type { walletMachine } from '../../machines/wallet/walletMachine';
import { provideAuthMachine, readStoredSession } from '../actors/authActors';
import { provideConfigMachine } from '../actors/configActors';
import { provideWalletMachine } from '../actors/walletActors';
import type { WalletLogger } from '../actors/walletActors';
import { ApiCode } from '../../api-schema/codes';
import { createApiClient } from '../api/client';
import type { ApiClient, CreateApiClientParameters } from '../api/client';
import type { BrowserStorage } from '../storage/browserStorage';
import { REMEMBERED_WALLET_KEY } from '../storage/keys';
import type { DiscoveredProvider, Eip1193Provider } from '../wallet/types';

export interface RootActors {
  /** The API client pages give their own flows (lists, search, forms): a 1002 answer ends the session. */
  api: ApiClient;
  wallet: ActorRefFrom<typeof walletMachine>;
  auth: ActorRefFrom<typeof authMachine>;
  config: ActorRefFrom<typeof configMachine>;
  /** The provider of the wallet the member connected, for the top-up sheet's transaction; undefined when none. */
  walletProvider: () => Eip1193Provider | undefined;
  /** The page's storage (the top-up sheet keeps a pending top-up there). */
  storage: BrowserStorage;
  stop: () => void;
}

export interface CreateRootActorsParameters {
  storage: BrowserStorage;
  translate: (key: string) => string;
  loadProviders: () => Promise<DiscoveredProvider[]>;
  /** Calls onFound once a wallet appears in the page after discovery looked; returns a stop. */
  watchProviders: (onFound: () => void) => () => void;
  site: { domain: string; uri: string };
  fetchImpl?: CreateApiClientParameters['fetchImpl'];
  logger?: WalletLogger & { error(...args: unknown[]): void };
  /** Connect eagerly at start (the default in the app; tests decide per case). */
  connectEagerly?: boolean;
  /** The actors' clock for delays (tests pass xstate's SimulatedClock); the real one by default. */
  clock?: ActorOptions<AnyActorLogic>['clock'];
}

/** The wallet the member connected last (src/storage/keys.ts REMEMBERED_WALLET_KEY), or null. */
function readRememberedWallet(storage: BrowserStorage): string | null {
  const stored = storage.readJson(REMEMBERED_WALLET_KEY);
  return typeof stored === 'string' && stored !== '' ? stored : null;
}

/**
 * Creates and starts the root actors, one step at a time: each `yield` is a point where the browser may run other
 * tasks (the app's start-up yields there, so no one task creates all three machines; bench/lighthouse.ts).
 */
function* rootActorSteps({
  storage,
  translate,
  loadProviders,
  watchProviders,
  site,
  fetchImpl,
  logger = console,
  connectEagerly = true,
  clock,
}: CreateRootActorsParameters): Generator<void, RootActors> {
  const actorOptions = clock ? { clock } : {};
  const late: { auth?: RootActors['auth'] } = {};
  const makeClient = (getAuthorization: () => string | null): ApiClient => {
    const client = createApiClient({ getAuthorization, translate, fetchImpl, logger });
    return {
      call: async (name, ...args) => {
        const answer = await client.call(name, ...args);
        if (answer.code === ApiCode.notSignedIn) late.auth?.send({ type: 'server.tokenExpired' });
        return answer;
      },
    };
  };
  const api = makeClient(() => storage.readAuthorization());

  const rememberedWallet = {
    remember: (providerId: string) => void storage.writeJson(REMEMBERED_WALLET_KEY, providerId),
    forget: () => void storage.remove(REMEMBERED_WALLET_KEY),
  };
  const { machine: walletLogic, session } = provideWalletMachine({ loadProviders, watchProviders, logger, rememberedWallet });
  const wallet = createActor(walletLogic, actorOptions);
  yield;
  const config = createActor(provideConfigMachine({ api, storage }), actorOptions);
  yield;
  const auth = createActor(
    provideAuthMachine({
      api,
      apiWithToken: (token) => makeClient(() => token),
      storage,
      site: {
        ...site,
        statement: () => {
          const statement = config.getSnapshot().context.dappParam?.siweStatement;
          return typeof statement === 'string' && statement ? statement : undefined;
        },
      },
      signWithWallet: async (address: Address, message: string) => {
        const providerId = wallet.getSnapshot().context.providerId;
        return (await session.requestsFor(providerId ?? '')).signMessage({ address, message });
      },
    }),
    { ...actorOptions, input: readStoredSession(storage) },
  );
  late.auth = auth;
  yield;

  // The wallet's first account is who the member is: another account, or none, ends the session (auth decides).
  let previousAccount: string | null = null;
  const subscription = wallet.subscribe((snapshot) => {
    const account = snapshot.context.accounts[0] ?? null;
    if (account === previousAccount) return;
    if (account) auth.send({ type: 'wallet.accountChanged', address: account });
    else auth.send({ type: 'wallet.disconnected' });
    previousAccount = account;
  });

  config.start();
  yield;
  auth.start();
  yield;
  wallet.start();
  if (connectEagerly) wallet.send({ type: 'app.connectEagerly', providerId: readRememberedWallet(storage) });

  return {
    api,
    wallet,
    auth,
    config,
    walletProvider: () => session.providerFor(wallet.getSnapshot().context.providerId ?? ''),
    storage,
    stop: () => {
      subscription.unsubscribe();
      wallet.stop();
      auth.stop();
      config.stop();
    },
  };
}

/**
 * Creates and starts the root actors at once.
 *
 * @example const actors = createRootActors({ storage, translate: i18n.t, loadProviders, watchProviders, site });
 */
export function createRootActors(parameters: CreateRootActorsParameters): RootActors {
  const steps = rootActorSteps(parameters);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Creates and starts the root actors as createRootActors does, awaiting `between` after each step.
 *
 * @example const actors = await createRootActorsInSteps(parameters, nextTask);
 */
export async function createRootActorsInSteps(parameters: CreateRootActorsParameters, between: () => Promise<void>): Promise<RootActors> {
  const steps = rootActorSteps(parameters);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await between();
  }
}
