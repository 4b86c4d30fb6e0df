/**
 * Activation (spec section 4): find the wallet, read or request its accounts, read its chain, then either go
 * active or ask to switch to the app's chain. A member connect asks (eth_requestAccounts); an eager connect at
 * start only reads (eth_accounts) and falls back to idle quietly.
 */
import { notGuard } from '../shared/guards';
import { WalletErrorCodes, WalletErrorNames } from '../shared/errorNames';
import { Decisions } from '../shared/transitionMeta';
import { disconnectActions, eventAccounts } from './disconnected';
import { providerInput, walletSetup } from './walletSetup';

export const activating = walletSetup.createStateConfig({
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
            guard: { type: 'hasNoProvider', params: ({ event }) => ({ providers: event.output }) },
            description: 'No wallet yet: give a wallet that injects late a moment to arrive.',
            target: 'searching',
          },
          {
            guard: { type: 'isEagerWithoutSingleProvider', params: ({ event }) => ({ providers: event.output }) },
            description: 'An eager connect stays quiet when there are several wallets to choose from: nothing was asked for, and the app does not guess.',
            target: '#wallet.idle',
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
    searching: {
      description:
        'No wallet was in the page yet. Wallets that inject late (window.ethereum set after load, ethereum#initialized, a late EIP-6963 announcement) get walletSearchTimeout to arrive; the page shows that it is looking.',
      invoke: { id: 'watchForProviders', src: 'watchForProviders' },
      after: {
        walletSearchTimeout: {
          description: "None came: 'Phantom not installed' (spec section 5), and the page offers a way into a wallet.",
          target: '#wallet.idle.noWallet',
          actions: [{ type: 'assignNamedError', params: { name: WalletErrorNames.providerNotFound } }, 'reportNoWallet'],
        },
      },
      on: {
        'provider.detected': { description: 'A wallet arrived: look again, now with it.', target: 'discovering' },
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
        input: providerInput,
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
        input: providerInput,
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
            description: '-32002: the wallet already shows a connect prompt; the app waits for it instead of asking again.',
            meta: { walletCodes: [WalletErrorCodes.requestPending], decision: Decisions.walletSwitchFailureKeepsConnection },
            target: 'awaitingWallet',
            actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
          },
          {
            description: 'The member refused to connect (4001), or the wallet failed: back to idle with the error shown.',
            meta: { walletCodes: [WalletErrorCodes.userRejected], decision: Decisions.walletSwitchFailureKeepsConnection },
            target: '#wallet.idle',
            actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'resetConnection', 'reportError'],
          },
        ],
      },
    },
    awaitingWallet: {
      description:
        'The wallet already has a request open (-32002). Nothing is sent again: the member finishes it in the wallet, and its answer arrives as a provider event.',
      invoke: { id: 'listenToProvider', src: 'listenToProvider', input: providerInput },
      on: {
        'provider.accountsChanged': [
          {
            guard: notGuard({ type: 'hasAccounts', params: eventAccounts }),
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
          meta: { walletCodes: [WalletErrorCodes.disconnected, WalletErrorCodes.chainDisconnected] },
          target: '#wallet.idle',
          actions: disconnectActions,
        },
      },
    },
    readingChain: {
      description: 'eth_chainId; hex, number and decimal answers are all read.',
      invoke: {
        id: 'readChainId',
        src: 'readChainId',
        input: providerInput,
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
});
