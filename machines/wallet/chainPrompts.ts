/**
 * The two prompts that move the wallet to the app's chain (spec section 4; docs/decisions/0003): switching, and
 * adding the chain when the wallet may not know it (4902, or -32603 in any language). A failure, a timeout or a cancel ends the prompt in
 * `active` on the wallet's own chain with the error kept; -32002 waits for the wallet instead of asking again.
 */
import { notGuard } from '../shared/guards';
import { WalletErrorCodes, WalletErrorNames } from '../shared/errorNames';
import { Decisions } from '../shared/transitionMeta';
import { disconnectActions, eventAccounts, eventDisconnectError } from './disconnected';
import { listenToProvider, providerInput, walletSetup } from './walletSetup';
import type { AddChainParameters } from './walletSetup';

/**
 * What the two chain prompts (switch and add) share: they wait on the wallet, so they time out and can be
 * cancelled, and they end when the wallet drops every account or disconnects.
 */
const chainPrompt = walletSetup.createStateConfig({
  tags: 'activating',
  after: {
    walletTimeout: {
      description: 'wallet.switchingChain:after.walletTimeout',
      meta: { decision: Decisions.walletSwitchFailureKeepsConnection },
      target: 'active',
      actions: [{ type: 'assignNamedError', params: { name: WalletErrorNames.timeout } }, 'reportError'],
    },
  },
  on: {
    'user.cancel': { meta: { decision: Decisions.walletSwitchFailureKeepsConnection }, target: 'active', actions: 'clearError' },
    'provider.accountsChanged': {
      guard: notGuard({ type: 'hasAccounts', params: eventAccounts }),
      target: 'idle',
      actions: 'resetConnection',
    },
    'provider.disconnect': {
      guard: notGuard({ type: 'isReconnecting', params: eventDisconnectError }),
      meta: { walletCodes: [WalletErrorCodes.disconnected, WalletErrorCodes.chainDisconnected] },
      target: 'idle',
      actions: disconnectActions,
    },
  },
});

export const switchingChain = walletSetup.createStateConfig({
  ...chainPrompt,
  description: 'wallet.switchingChain',
  invoke: [
    {
      id: 'switchChain',
      src: 'switchChain',
      input: ({ context }) => ({ ...providerInput({ context }), chainId: context.targetChainId ?? 0 }),
      onDone: { target: 'active', actions: 'assignTargetAsChain' },
      onError: [
        {
          guard: { type: 'canAddChain', params: ({ event }) => ({ error: event.error }) },
          description: 'wallet.switchingChain:error.switchChain[canAddChain]',
          meta: {
            walletCodes: [WalletErrorCodes.unrecognizedChain, WalletErrorCodes.internalError],
            decision: Decisions.walletSwitchFailureKeepsConnection,
          },
          target: 'addingChain',
        },
        {
          guard: { type: 'cannotSwitchChain', params: ({ event }) => ({ error: event.error }) },
          description: 'wallet.switchingChain:error.switchChain[cannotSwitchChain]',
          meta: {
            walletCodes: [WalletErrorCodes.unsupportedMethod, WalletErrorCodes.methodNotFound],
            decision: Decisions.walletSwitchFailureKeepsConnection,
          },
          target: 'switchingManually',
          actions: 'clearError',
        },
        {
          guard: { type: 'isUnrecognizedChainWithoutParams', params: ({ event }) => ({ error: event.error }) },
          description: 'wallet.switchingChain:error.switchChain[isUnrecognizedChainWithoutParams]',
          meta: { walletCodes: [WalletErrorCodes.unrecognizedChain], decision: Decisions.walletSwitchFailureKeepsConnection },
          target: 'active',
          actions: [{ type: 'assignNamedError', params: { name: WalletErrorNames.chainParamsMissing } }, 'reportError'],
        },
        {
          guard: { type: 'isRequestPending', params: ({ event }) => ({ error: event.error }) },
          description: 'wallet.switchingChain:error.switchChain[isRequestPending]',
          meta: { walletCodes: [WalletErrorCodes.requestPending], decision: Decisions.walletSwitchFailureKeepsConnection },
          target: 'activating.awaitingWallet',
          actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
        },
        {
          description: 'wallet.switchingChain:error.switchChain',
          meta: { walletCodes: [WalletErrorCodes.userRejected, WalletErrorCodes.unrecognizedChain], decision: Decisions.walletSwitchFailureKeepsConnection },
          target: 'active',
          actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'reportError'],
        },
      ],
    },
    listenToProvider,
  ],
  on: {
    ...chainPrompt.on,
    'provider.chainChanged': { actions: { type: 'assignChainId', params: ({ event }) => ({ chainId: event.chainId }) } },
  },
});

export const addingChain = walletSetup.createStateConfig({
  ...chainPrompt,
  description: 'wallet.addingChain',
  invoke: [
    {
      id: 'addChain',
      src: 'addChain',
      input: ({ context }) => ({
        ...providerInput({ context }),
        chainId: context.targetChainId ?? 0,
        // canAddChain let us in only with chain params.
        chainParams: context.chainParams as AddChainParameters,
      }),
      onDone: { target: 'activating.requestingAccounts', actions: 'assignChainAdded' },
      onError: [
        {
          guard: { type: 'cannotSwitchChain', params: ({ event }) => ({ error: event.error }) },
          description: 'wallet.addingChain:error.addChain[cannotSwitchChain]',
          meta: {
            walletCodes: [WalletErrorCodes.unsupportedMethod, WalletErrorCodes.methodNotFound],
            decision: Decisions.walletSwitchFailureKeepsConnection,
          },
          target: 'switchingManually',
          actions: ['assignChainAdded', 'clearError'],
        },
        {
          guard: { type: 'isRequestPending', params: ({ event }) => ({ error: event.error }) },
          description: 'wallet.addingChain:error.addChain[isRequestPending]',
          meta: { walletCodes: [WalletErrorCodes.requestPending], decision: Decisions.walletSwitchFailureKeepsConnection },
          target: 'activating.awaitingWallet',
          actions: ['assignChainAdded', { type: 'assignError', params: ({ event }) => ({ error: event.error }) }],
        },
        {
          description: 'wallet.addingChain:error.addChain',
          meta: { walletCodes: [WalletErrorCodes.userRejected], decision: Decisions.walletSwitchFailureKeepsConnection },
          target: 'active',
          actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'reportError'],
        },
      ],
    },
    listenToProvider,
  ],
});
