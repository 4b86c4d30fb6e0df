/**
 * Activation (spec section 4): find the wallet, read or request its accounts, read its chain, then either go
 * active or ask to switch to the app's chain. A member connect asks (eth_requestAccounts); an eager connect at
 * start only reads (eth_accounts) and falls back to idle quietly. With several wallets in the page the eager
 * connect reads the one the member connected last (remembered by its rdns), and gives up only without one.
 */
import { notGuard } from '../shared/guards';
import { WalletErrorCodes, WalletErrorNames } from '../shared/errorNames';
import { Decisions } from '../shared/transitionMeta';
import { disconnectActions, eventAccounts } from './disconnected';
import { providerInput, walletSetup } from './walletSetup';

export const activating = walletSetup.createStateConfig({
  description: 'wallet.activating',
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
      description: 'wallet.activating.discovering',
      invoke: {
        id: 'findProviders',
        src: 'findProviders',
        onDone: [
          {
            guard: { type: 'hasNoProvider', params: ({ event }) => ({ providers: event.output }) },
            description: 'wallet.activating.discovering:done.findProviders[hasNoProvider]',
            target: 'searching',
          },
          {
            guard: { type: 'isEagerWithRememberedProvider', params: ({ event }) => ({ providers: event.output }) },
            description: 'wallet.activating.discovering:done.findProviders[isEagerWithRememberedProvider]',
            target: 'readingAccounts',
            actions: { type: 'assignRememberedProvider', params: ({ event }) => ({ providers: event.output }) },
          },
          {
            guard: { type: 'isEagerWithoutSingleProvider', params: ({ event }) => ({ providers: event.output }) },
            description: 'wallet.activating.discovering:done.findProviders[isEagerWithoutSingleProvider]',
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
      description: 'wallet.activating.searching',
      invoke: { id: 'watchForProviders', src: 'watchForProviders' },
      after: {
        walletSearchTimeout: {
          description: 'wallet.activating.searching:after.walletSearchTimeout',
          target: '#wallet.idle.noWallet',
          actions: [{ type: 'assignNamedError', params: { name: WalletErrorNames.providerNotFound } }, 'reportNoWallet'],
        },
      },
      on: {
        'provider.detected': { description: 'wallet.activating.searching:provider.detected', target: 'discovering' },
      },
    },
    choosingProvider: {
      description: 'wallet.activating.choosingProvider',
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
      description: 'wallet.activating.readingAccounts',
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
      description: 'wallet.activating.requestingAccounts',
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
            description: 'wallet.activating.requestingAccounts:error.requestAccounts[isRequestPending]',
            meta: { walletCodes: [WalletErrorCodes.requestPending], decision: Decisions.walletSwitchFailureKeepsConnection },
            target: 'awaitingWallet',
            actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
          },
          {
            description: 'wallet.activating.requestingAccounts:error.requestAccounts',
            meta: { walletCodes: [WalletErrorCodes.userRejected], decision: Decisions.walletSwitchFailureKeepsConnection },
            target: '#wallet.idle',
            actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'resetConnection', 'reportError'],
          },
        ],
      },
    },
    awaitingWallet: {
      description: 'wallet.activating.awaitingWallet',
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
      description: 'wallet.activating.readingChain',
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
