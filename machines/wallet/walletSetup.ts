/**
 * The wallet machine's vocabulary: its context, events, and the actors, actions, guards and delays it names in
 * setup (docs/architecture.md, "Machines"). walletMachine.ts and the state configs beside it build on this one setup.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { EventObject } from 'xstate';
import { parseChainId } from '../shared/chainId';
import { hasErrorName, notProvided, toErrorInfo } from '../shared/errorInfo';
import type { ErrorInfo } from '../shared/errorInfo';
import { WalletErrorCodes, WalletErrorNames } from '../shared/errorNames';
import type { TransitionMeta } from '../shared/transitionMeta';

/** wallet_addEthereumChain parameters less chainId (EIP-3085), as app config gives them. */
export interface AddChainParameters {
  chainName: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  rpcUrls: string[];
  blockExplorerUrls?: string[];
}

/** A wallet found in the page, without its provider object (context stays serialisable). */
export interface ProviderInfo {
  id: string;
  name: string;
  icon?: string;
}

export interface WalletContext {
  chainId: number | null;
  accounts: string[];
  error: ErrorInfo | null;
  /** How the running activation was asked for: eager ones fail quietly. */
  mode: 'eager' | 'user';
  providers: ProviderInfo[];
  providerId: string | null;
  /** The chain the app wants, from app config, with what is needed to add it. */
  targetChainId: number | null;
  chainParams: AddChainParameters | null;
  /** Set once the chain was added in this activation, so a second 4902 ends it instead of looping. */
  chainAdded: boolean;
  /**
   * The wallet the member last connected (its EIP-6963 rdns, as the app remembered it): with several wallets in the
   * page, the eager connect at start reconnects to this one instead of giving up.
   */
  rememberedProviderId: string | null;
}

export type WalletEvent =
  | { type: 'user.connect'; chainId?: number; chainParams?: AddChainParameters | null }
  | { type: 'app.connectEagerly'; providerId?: string | null }
  | { type: 'user.chooseProvider'; providerId: string }
  | { type: 'user.cancel' }
  | { type: 'user.disconnect' }
  | { type: 'provider.accountsChanged'; accounts: readonly string[] }
  | { type: 'provider.chainChanged'; chainId: unknown }
  | { type: 'provider.connect'; chainId: unknown }
  | { type: 'provider.disconnect'; error: { code?: number; message?: string } }
  /** A wallet appeared in the page after discovery looked (late injection, a late EIP-6963 announcement). */
  | { type: 'provider.detected' };

/** Provider events, as the listener sends them to the machine. */
export type ProviderEvent = Extract<WalletEvent, { type: `provider.${string}` }>;

/** What every wallet actor gets: the wallet it talks to. */
export interface ProviderInput {
  providerId: string;
}

/** The one input shape of the wallet actors: the chosen wallet ('' before one is chosen; the actor then fails). */
export const providerInput = ({ context }: { context: WalletContext }): ProviderInput => ({ providerId: context.providerId ?? '' });

export const initialContext: WalletContext = {
  chainId: null,
  accounts: [],
  error: null,
  mode: 'user',
  providers: [],
  providerId: null,
  targetChainId: null,
  chainParams: null,
  chainAdded: false,
  rememberedProviderId: null,
};

export const walletSetup = setup({
  types: {
    context: {} as WalletContext,
    events: {} as WalletEvent,
    tags: {} as 'activating',
    transitionMeta: {} as TransitionMeta,
  },
  actors: {
    findProviders: fromPromise<ProviderInfo[]>(async () => notProvided('wallet', 'findProviders')),
    readAccounts: fromPromise<string[], ProviderInput>(async () => notProvided('wallet', 'readAccounts')),
    requestAccounts: fromPromise<string[], ProviderInput>(async () => notProvided('wallet', 'requestAccounts')),
    readChainId: fromPromise<unknown, ProviderInput>(async () => notProvided('wallet', 'readChainId')),
    switchChain: fromPromise<null, ProviderInput & { chainId: number }>(async () => notProvided('wallet', 'switchChain')),
    addChain: fromPromise<null, ProviderInput & { chainId: number; chainParams: AddChainParameters }>(async () =>
      notProvided('wallet', 'addChain'),
    ),
    listenToProvider: fromCallback<EventObject, ProviderInput>(() => notProvided('wallet', 'listenToProvider')),
    /** Sends provider.detected once a wallet appears in the page: window.ethereum set late, ethereum#initialized, EIP-6963. */
    watchForProviders: fromCallback<EventObject>(() => notProvided('wallet', 'watchForProviders')),
  },
  actions: {
    assignConnectRequest: assign((_, params: { chainId?: number; chainParams?: AddChainParameters | null }) => ({
      mode: 'user' as const,
      error: null,
      chainAdded: false,
      targetChainId: params.chainId ?? null,
      chainParams: params.chainParams ?? null,
    })),
    assignEagerRequest: assign((_, params: { providerId?: string | null }) => ({
      mode: 'eager' as const,
      error: null,
      chainAdded: false,
      rememberedProviderId: params.providerId ?? null,
    })),
    assignTarget: assign((_, params: { chainId?: number; chainParams?: AddChainParameters | null }) => ({
      error: null,
      chainAdded: false,
      targetChainId: params.chainId ?? null,
      chainParams: params.chainParams ?? null,
    })),
    assignProviders: assign((_, params: { providers: ProviderInfo[] }) => ({
      providers: params.providers,
      providerId: params.providers[0]?.id ?? null,
    })),
    assignProviderId: assign((_, params: { providerId: string }) => ({ providerId: params.providerId })),
    assignRememberedProvider: assign(({ context }, params: { providers: ProviderInfo[] }) => ({
      providers: params.providers,
      providerId: context.rememberedProviderId,
    })),
    assignAccounts: assign((_, params: { accounts: readonly string[] }) => ({ accounts: [...params.accounts] })),
    assignChainId: assign(({ context }, params: { chainId: unknown }) => ({
      chainId: parseChainId(params.chainId) ?? context.chainId,
    })),
    assignTargetAsChain: assign(({ context }) => ({ chainId: context.targetChainId })),
    assignChainAdded: assign({ chainAdded: true }),
    assignError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    assignNamedError: assign((_, params: { name: string; code?: number }) => ({
      error: params.code === undefined ? { name: params.name } : { name: params.name, code: params.code },
    })),
    clearError: assign({ error: null }),
    resetConnection: assign({ chainId: null, accounts: [], providerId: null, providers: [], chainAdded: false }),
    reportNoAccounts: () => {
      // Replaced by the app with a debug-level log (spec section 8: swallowed and logged at debug level).
    },
    reportNoWallet: () => {
      // Replaced by the app with a debug-level log: no wallet in the page is what a plain browser has, not a fault.
    },
    reportError: () => {
      // Replaced by the app with its logger; the error itself is kept in context for the UI.
    },
    rememberProvider: (_, _params: { providerId: string | null }) => {
      // Provided by the app: the connected wallet's id (EIP-6963 rdns) is stored for the eager connect at the next start.
    },
    forgetProvider: () => {
      // Provided by the app: the member disconnected, so no wallet is reconnected at the next start.
    },
  },
  guards: {
    hasNoProvider: (_, params: { providers: ProviderInfo[] }) => params.providers.length === 0,
    isEagerWithoutSingleProvider: ({ context }, params: { providers: ProviderInfo[] }) =>
      context.mode === 'eager' && params.providers.length !== 1,
    hasManyProviders: (_, params: { providers: ProviderInfo[] }) => params.providers.length > 1,
    isEager: ({ context }) => context.mode === 'eager',
    /** An eager connect that finds the wallet the member connected last among those in the page. */
    isEagerWithRememberedProvider: ({ context }, params: { providers: ProviderInfo[] }) =>
      context.mode === 'eager' && params.providers.some((provider) => provider.id === context.rememberedProviderId),
    isKnownProvider: ({ context }, params: { providerId: string }) =>
      context.providers.some((provider) => provider.id === params.providerId),
    hasAccounts: (_, params: { accounts: readonly string[] }) => params.accounts.length > 0,
    isWrongChain: ({ context }, params: { chainId: unknown }) =>
      context.targetChainId !== null && parseChainId(params.chainId) !== context.targetChainId,
    isTargetChainDifferent: ({ context }, params: { chainId?: number }) =>
      params.chainId !== undefined && params.chainId !== context.chainId,
    isRequestPending: (_, params: { error: unknown }) => hasErrorName(params.error, WalletErrorNames.requestPending),
    /**
     * The switch the app just asked for failed in a way that may mean "unknown chain": 4902 (however wrapped), or
     * an answer without a code the app knows (-32603 and the like, whatever language its message is in). With the
     * chain's parameters at hand and the chain not yet added in this activation, adding it is worth one try.
     */
    canAddChain: ({ context }, params: { error: unknown }) =>
      (hasErrorName(params.error, WalletErrorNames.unrecognizedChain) || hasErrorName(params.error, WalletErrorNames.unknown)) &&
      context.chainParams !== null &&
      !context.chainAdded,
    /** 4200 or -32601 to a chain request: this wallet cannot switch (or add) chains for the app. */
    cannotSwitchChain: (_, params: { error: unknown }) => hasErrorName(params.error, WalletErrorNames.unsupportedMethod),
    isTargetChain: ({ context }, params: { chainId: unknown }) =>
      context.targetChainId !== null && parseChainId(params.chainId) === context.targetChainId,
    isUnrecognizedChainWithoutParams: ({ context }, params: { error: unknown }) =>
      hasErrorName(params.error, WalletErrorNames.unrecognizedChain) && context.chainParams === null,
    /** Code 1013 of a provider disconnect: the wallet is reconnecting by itself. */
    isReconnecting: (_, params: { error: { code?: number } }) => params.error.code === WalletErrorCodes.reconnecting,
  },
  delays: {
    /** How long the app waits for any one wallet answer before giving up (the wallet may never answer). */
    walletTimeout: 60_000,
    /**
     * How long the app looks for a wallet that injects itself late before it says there is none: MetaMask Mobile
     * and several WebView wallets inject after load (src/wallet/walletQuirks.ts).
     */
    walletSearchTimeout: 3_000,
  },
});

/** The listener every connected or waiting state runs, so provider events reach the machine. */
export const listenToProvider = { id: 'listenToProvider', src: 'listenToProvider', input: providerInput } as const;
