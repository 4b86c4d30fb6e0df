/**
 * The wallet connector (spec sections 4, 5 and 8). The member connects the wallet injected by the wallet browser;
 * the app finds it on demand, asks for accounts, and moves the wallet to the app's chain: it asks to switch, and
 * when the wallet does not know the chain (4902 in its several disguises) it adds the chain from app config and
 * retries the activation once. An eager connect at start only reads what the wallet already allows (eth_accounts)
 * and falls back to idle quietly. Provider events keep accounts and chain in step while connected.
 *
 * Active means chainId and accounts are set and no activation is running (spec section 3).
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { EventObject } from 'xstate';
import { parseChainId } from '../shared/chainId';
import { hasErrorName, notProvided, toErrorInfo } from '../shared/errorInfo';
import type { ErrorInfo } from '../shared/errorInfo';
import { WalletErrorNames } from '../shared/errorNames';

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
}

export type WalletEvent =
  | { type: 'user.connect'; chainId?: number; chainParams?: AddChainParameters | null }
  | { type: 'app.connectEagerly' }
  | { type: 'user.chooseProvider'; providerId: string }
  | { type: 'user.cancel' }
  | { type: 'user.disconnect' }
  | { type: 'provider.accountsChanged'; accounts: readonly string[] }
  | { type: 'provider.chainChanged'; chainId: unknown }
  | { type: 'provider.connect'; chainId: unknown }
  | { type: 'provider.disconnect'; error: { code?: number; message?: string } };

/** Provider events, as the listener sends them to the machine. */
export type ProviderEvent = Extract<WalletEvent, { type: `provider.${string}` }>;

interface ProviderInput {
  providerId: string;
}

const initialContext: WalletContext = {
  chainId: null,
  accounts: [],
  error: null,
  mode: 'user',
  providers: [],
  providerId: null,
  targetChainId: null,
  chainParams: null,
  chainAdded: false,
};

const walletSetup = setup({
  types: {
    context: {} as WalletContext,
    events: {} as WalletEvent,
    tags: {} as 'activating',
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
  },
  actions: {
    assignConnectRequest: assign((_, params: { chainId?: number; chainParams?: AddChainParameters | null }) => ({
      mode: 'user' as const,
      error: null,
      chainAdded: false,
      targetChainId: params.chainId ?? null,
      chainParams: params.chainParams ?? null,
    })),
    assignEagerRequest: assign({ mode: 'eager' as const, error: null, chainAdded: false }),
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
    reportError: () => {
      // Replaced by the app with its logger; the error itself is kept in context for the UI.
    },
  },
  guards: {
    hasNoProvider: (_, params: { providers: ProviderInfo[] }) => params.providers.length === 0,
    isEagerWithoutSingleProvider: ({ context }, params: { providers: ProviderInfo[] }) =>
      context.mode === 'eager' && params.providers.length !== 1,
    hasManyProviders: (_, params: { providers: ProviderInfo[] }) => params.providers.length > 1,
    isEager: ({ context }) => context.mode === 'eager',
    isKnownProvider: ({ context }, params: { providerId: string }) =>
      context.providers.some((provider) => provider.id === params.providerId),
    hasAccounts: (_, params: { accounts: readonly string[] }) => params.accounts.length > 0,
    isWrongChain: ({ context }, params: { chainId: unknown }) =>
      context.targetChainId !== null && parseChainId(params.chainId) !== context.targetChainId,
    isTargetChainDifferent: ({ context }, params: { chainId?: number }) =>
      params.chainId !== undefined && params.chainId !== context.chainId,
    isRequestPending: (_, params: { error: unknown }) => hasErrorName(params.error, WalletErrorNames.requestPending),
    canAddChain: ({ context }, params: { error: unknown }) =>
      hasErrorName(params.error, WalletErrorNames.unrecognizedChain) && context.chainParams !== null && !context.chainAdded,
    isUnrecognizedChainWithoutParams: ({ context }, params: { error: unknown }) =>
      hasErrorName(params.error, WalletErrorNames.unrecognizedChain) && context.chainParams === null,
    isAccountsEmpty: (_, params: { accounts: readonly string[] }) => params.accounts.length === 0,
    isReconnecting: (_, params: { error: { code?: number } }) => params.error.code === 1013,
    isNotReconnecting: (_, params: { error: { code?: number } }) => params.error.code !== 1013,
  },
  delays: {
    /** How long the app waits for any one wallet answer before giving up (the wallet may never answer). */
    walletTimeout: 60_000,
  },
});

/**
 * What the two chain prompts (switch and add) share: they wait on the wallet, so they time out and can be
 * cancelled, and they end when the wallet drops every account or disconnects.
 */
const chainPrompt = walletSetup.createStateConfig({
  tags: 'activating',
  after: {
    walletTimeout: {
      target: 'active',
      actions: [{ type: 'assignNamedError', params: { name: WalletErrorNames.timeout } }, 'reportError'],
    },
  },
  on: {
    'user.cancel': { target: 'active', actions: 'clearError' },
    'provider.accountsChanged': {
      guard: { type: 'isAccountsEmpty', params: ({ event }) => ({ accounts: event.accounts }) },
      target: 'idle',
      actions: 'resetConnection',
    },
    'provider.disconnect': {
      guard: { type: 'isNotReconnecting', params: ({ event }) => ({ error: event.error }) },
      target: 'idle',
      actions: [
        'resetConnection',
        { type: 'assignNamedError', params: ({ event }) => ({ name: WalletErrorNames.disconnected, code: event.error.code }) },
        'reportError',
      ],
    },
  },
});

export const walletMachine = walletSetup.createMachine({
  id: 'wallet',
  context: initialContext,
  initial: 'idle',
  states: {
    idle: {
      description: 'No wallet connection. An error from the last attempt, if any, is kept for the UI.',
      on: {
        'user.connect': {
          target: 'activating',
          actions: { type: 'assignConnectRequest', params: ({ event }) => ({ chainId: event.chainId, chainParams: event.chainParams }) },
        },
        'app.connectEagerly': { target: 'activating', actions: 'assignEagerRequest' },
      },
    },
    activating: {
      description: 'Finding the wallet and asking it for accounts and its chain.',
      tags: 'activating',
      initial: 'discovering',
      after: {
        walletTimeout: {
          target: 'idle',
          actions: [{ type: 'assignNamedError', params: { name: WalletErrorNames.timeout } }, 'resetConnection', 'reportError'],
        },
      },
      on: {
        'user.cancel': { target: 'idle', actions: ['resetConnection', 'clearError'] },
      },
      states: {
        discovering: {
          description: 'Looking for injected wallets: EIP-6963 announcements, then Phantom, then window.ethereum.',
          invoke: {
            id: 'findProviders',
            src: 'findProviders',
            onDone: [
              {
                guard: { type: 'isEagerWithoutSingleProvider', params: ({ event }) => ({ providers: event.output }) },
                description:
                  'An eager connect stays quiet when there is no wallet, or several to choose from: nothing was asked for, and the app does not guess.',
                target: '#wallet.idle',
              },
              {
                guard: { type: 'hasNoProvider', params: ({ event }) => ({ providers: event.output }) },
                target: '#wallet.idle',
                actions: [{ type: 'assignNamedError', params: { name: WalletErrorNames.providerNotFound } }, 'reportError'],
              },
              {
                guard: { type: 'hasManyProviders', params: ({ event }) => ({ providers: event.output }) },
                target: 'choosingProvider',
                actions: { type: 'assignProviders', params: ({ event }) => ({ providers: event.output }) },
              },
              {
                guard: 'isEager',
                target: 'readingAccounts',
                actions: { type: 'assignProviders', params: ({ event }) => ({ providers: event.output }) },
              },
              {
                target: 'requestingAccounts',
                actions: { type: 'assignProviders', params: ({ event }) => ({ providers: event.output }) },
              },
            ],
            onError: {
              target: '#wallet.idle',
              actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'reportError'],
            },
          },
        },
        choosingProvider: {
          description: 'Several wallets announced themselves: the member picks one (only a member connect gets here).',
          on: {
            'user.chooseProvider': [
              {
                guard: { type: 'isKnownProvider', params: ({ event }) => ({ providerId: event.providerId }) },
                target: 'requestingAccounts',
                actions: { type: 'assignProviderId', params: ({ event }) => ({ providerId: event.providerId }) },
              },
            ],
          },
        },
        readingAccounts: {
          description: 'Eager connect: eth_accounts, without a prompt. No account means quietly back to idle.',
          invoke: {
            id: 'readAccounts',
            src: 'readAccounts',
            input: ({ context }) => ({ providerId: context.providerId ?? '' }),
            onDone: [
              {
                guard: { type: 'hasAccounts', params: ({ event }) => ({ accounts: event.output }) },
                target: 'readingChain',
                actions: { type: 'assignAccounts', params: ({ event }) => ({ accounts: event.output }) },
              },
              { target: '#wallet.idle', actions: ['resetConnection', 'reportNoAccounts'] },
            ],
            onError: { target: '#wallet.idle', actions: ['resetConnection', 'reportNoAccounts'] },
          },
        },
        requestingAccounts: {
          description: 'eth_requestAccounts: the wallet asks the member to connect.',
          invoke: {
            id: 'requestAccounts',
            src: 'requestAccounts',
            input: ({ context }) => ({ providerId: context.providerId ?? '' }),
            onDone: [
              {
                guard: { type: 'hasAccounts', params: ({ event }) => ({ accounts: event.output }) },
                target: 'readingChain',
                actions: { type: 'assignAccounts', params: ({ event }) => ({ accounts: event.output }) },
              },
              {
                target: '#wallet.idle',
                actions: [{ type: 'assignNamedError', params: { name: WalletErrorNames.noAccounts } }, 'resetConnection', 'reportError'],
              },
            ],
            onError: [
              {
                guard: { type: 'isRequestPending', params: ({ event }) => ({ error: event.error }) },
                target: 'awaitingWallet',
                actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
              },
              {
                target: '#wallet.idle',
                actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'resetConnection', 'reportError'],
              },
            ],
          },
        },
        awaitingWallet: {
          description:
            'The wallet already has a request open (-32002). Nothing is sent again: the member finishes it in the wallet, and its answer arrives as a provider event.',
          invoke: { id: 'listenToProvider', src: 'listenToProvider', input: ({ context }) => ({ providerId: context.providerId ?? '' }) },
          on: {
            'provider.accountsChanged': [
              {
                guard: { type: 'isAccountsEmpty', params: ({ event }) => ({ accounts: event.accounts }) },
                target: '#wallet.idle',
                actions: ['resetConnection', 'clearError'],
              },
              {
                target: 'readingChain',
                actions: ['clearError', { type: 'assignAccounts', params: ({ event }) => ({ accounts: event.accounts }) }],
              },
            ],
            'provider.chainChanged': {
              target: 'readingChain',
              actions: ['clearError', { type: 'assignChainId', params: ({ event }) => ({ chainId: event.chainId }) }],
            },
            'provider.disconnect': {
              target: '#wallet.idle',
              actions: [
                'resetConnection',
                { type: 'assignNamedError', params: ({ event }) => ({ name: WalletErrorNames.disconnected, code: event.error.code }) },
                'reportError',
              ],
            },
          },
        },
        readingChain: {
          description: 'eth_chainId; hex, number and decimal answers are all read.',
          invoke: {
            id: 'readChainId',
            src: 'readChainId',
            input: ({ context }) => ({ providerId: context.providerId ?? '' }),
            onDone: [
              {
                guard: { type: 'isWrongChain', params: ({ event }) => ({ chainId: event.output }) },
                target: '#wallet.switchingChain',
                actions: { type: 'assignChainId', params: ({ event }) => ({ chainId: event.output }) },
              },
              {
                target: '#wallet.active',
                actions: { type: 'assignChainId', params: ({ event }) => ({ chainId: event.output }) },
              },
            ],
            onError: {
              target: '#wallet.idle',
              actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'resetConnection', 'reportError'],
            },
          },
        },
      },
    },
    switchingChain: {
      ...chainPrompt,
      description:
        'wallet_switchEthereumChain {chainId: hex}: the wallet is on another chain than the app. A failure or a cancel only ends the switch: the wallet stays connected on its chain, with the error shown.',
      invoke: [
        {
          id: 'switchChain',
          src: 'switchChain',
          input: ({ context }) => ({ providerId: context.providerId ?? '', chainId: context.targetChainId ?? 0 }),
          onDone: { target: 'active', actions: 'assignTargetAsChain' },
          onError: [
            {
              guard: { type: 'canAddChain', params: ({ event }) => ({ error: event.error }) },
              target: 'addingChain',
            },
            {
              guard: { type: 'isUnrecognizedChainWithoutParams', params: ({ event }) => ({ error: event.error }) },
              target: 'active',
              actions: [{ type: 'assignNamedError', params: { name: WalletErrorNames.chainParamsMissing } }, 'reportError'],
            },
            {
              guard: { type: 'isRequestPending', params: ({ event }) => ({ error: event.error }) },
              target: 'activating.awaitingWallet',
              actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
            },
            {
              target: 'active',
              actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'reportError'],
            },
          ],
        },
        { id: 'listenToProvider', src: 'listenToProvider', input: ({ context }) => ({ providerId: context.providerId ?? '' }) },
      ],
      on: {
        ...chainPrompt.on,
        'provider.chainChanged': { actions: { type: 'assignChainId', params: ({ event }) => ({ chainId: event.chainId }) } },
      },
    },
    addingChain: {
      ...chainPrompt,
      description: 'wallet_addEthereumChain {...chain params, chainId: hex}, then the activation is retried once.',
      invoke: [
        {
          id: 'addChain',
          src: 'addChain',
          input: ({ context }) => ({
            providerId: context.providerId ?? '',
            chainId: context.targetChainId ?? 0,
            // canAddChain let us in only with chain params.
            chainParams: context.chainParams as AddChainParameters,
          }),
          onDone: { target: 'activating.requestingAccounts', actions: 'assignChainAdded' },
          onError: [
            {
              guard: { type: 'isRequestPending', params: ({ event }) => ({ error: event.error }) },
              target: 'activating.awaitingWallet',
              actions: ['assignChainAdded', { type: 'assignError', params: ({ event }) => ({ error: event.error }) }],
            },
            {
              target: 'active',
              actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'reportError'],
            },
          ],
        },
        { id: 'listenToProvider', src: 'listenToProvider', input: ({ context }) => ({ providerId: context.providerId ?? '' }) },
      ],
    },
    active: {
      description: 'Connected: chainId and accounts are set. Provider events keep them in step.',
      invoke: { id: 'listenToProvider', src: 'listenToProvider', input: ({ context }) => ({ providerId: context.providerId ?? '' }) },
      on: {
        'user.connect': {
          guard: { type: 'isTargetChainDifferent', params: ({ event }) => ({ chainId: event.chainId }) },
          target: 'switchingChain',
          actions: { type: 'assignTarget', params: ({ event }) => ({ chainId: event.chainId, chainParams: event.chainParams }) },
        },
        'user.disconnect': { target: 'idle', actions: ['resetConnection', 'clearError'] },
        'provider.accountsChanged': [
          {
            guard: { type: 'isAccountsEmpty', params: ({ event }) => ({ accounts: event.accounts }) },
            target: 'idle',
            actions: 'resetConnection',
          },
          { actions: { type: 'assignAccounts', params: ({ event }) => ({ accounts: event.accounts }) } },
        ],
        'provider.chainChanged': { actions: { type: 'assignChainId', params: ({ event }) => ({ chainId: event.chainId }) } },
        'provider.connect': { actions: { type: 'assignChainId', params: ({ event }) => ({ chainId: event.chainId }) } },
        'provider.disconnect': [
          {
            guard: { type: 'isReconnecting', params: ({ event }) => ({ error: event.error }) },
            description: 'Code 1013 means the wallet is reconnecting by itself: keep the connection.',
            actions: [],
          },
          {
            target: 'idle',
            actions: [
              'resetConnection',
              { type: 'assignNamedError', params: ({ event }) => ({ name: WalletErrorNames.disconnected, code: event.error.code }) },
              'reportError',
            ],
          },
        ],
      },
    },
  },
});

export type WalletMachine = typeof walletMachine;
