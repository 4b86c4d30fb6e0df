/**
 * The member's own switch (docs/decisions/0003): a wallet that cannot switch or add chains for the app (4200 or
 * -32601, as imToken before 2.10 answers; src/wallet/walletQuirks.ts) leaves the app asking the member to pick the
 * app's network in the wallet. The wallet's chainChanged to that network carries on without a reload.
 */
import { notGuard } from '../shared/guards';
import { WalletErrorCodes } from '../shared/errorNames';
import { Decisions } from '../shared/transitionMeta';
import { disconnectActions, eventAccounts, eventDisconnectError } from './disconnected';
import { listenToProvider, walletSetup } from './walletSetup';

export const switchingManually = walletSetup.createStateConfig({
  description: 'wallet.switchingManually',
  invoke: listenToProvider,
  on: {
    'provider.chainChanged': [
      {
        guard: { type: 'isTargetChain', params: ({ event }) => ({ chainId: event.chainId }) },
        description: 'wallet.switchingManually:provider.chainChanged[isTargetChain]',
        target: 'active',
        actions: ['clearError', { type: 'assignChainId', params: ({ event }) => ({ chainId: event.chainId }) }],
      },
      {
        description: 'wallet.switchingManually:provider.chainChanged',
        actions: { type: 'assignChainId', params: ({ event }) => ({ chainId: event.chainId }) },
      },
    ],
    'provider.accountsChanged': [
      {
        guard: notGuard({ type: 'hasAccounts', params: eventAccounts }),
        target: 'idle',
        actions: 'resetConnection',
      },
      { actions: { type: 'assignAccounts', params: ({ event }) => ({ accounts: event.accounts }) } },
    ],
    'provider.disconnect': {
      guard: notGuard({ type: 'isReconnecting', params: eventDisconnectError }),
      meta: { walletCodes: [WalletErrorCodes.disconnected, WalletErrorCodes.chainDisconnected] },
      target: 'idle',
      actions: disconnectActions,
    },
    'user.cancel': {
      description: 'wallet.switchingManually:user.cancel',
      meta: { decision: Decisions.walletSwitchFailureKeepsConnection },
      target: 'active',
      actions: 'clearError',
    },
  },
});
