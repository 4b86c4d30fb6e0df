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
      description: 'The wallet never answered: the prompt ends, the wallet stays connected on its chain.',
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
  description:
    'wallet_switchEthereumChain {chainId: hex}: the wallet is on another chain than the app. A failure or a cancel only ends the switch: the wallet stays connected on its chain, with the error shown.',
  invoke: [
    {
      id: 'switchChain',
      src: 'switchChain',
      input: ({ context }) => ({ ...providerInput({ context }), chainId: context.targetChainId ?? 0 }),
      onDone: { target: 'active', actions: 'assignTargetAsChain' },
      onError: [
        {
          guard: { type: 'canAddChain', params: ({ event }) => ({ error: event.error }) },
          description:
            '4902, or an answer without a known code (-32603 in any language, as Trust Wallet localises it): the wallet may not know the chain, and app config has its parameters: add it, once.',
          meta: {
            walletCodes: [WalletErrorCodes.unrecognizedChain, WalletErrorCodes.internalError],
            decision: Decisions.walletSwitchFailureKeepsConnection,
          },
          target: 'addingChain',
        },
        {
          guard: { type: 'cannotSwitchChain', params: ({ event }) => ({ error: event.error }) },
          description: 'The wallet cannot switch chains for the app: the member switches by hand.',
          meta: {
            walletCodes: [WalletErrorCodes.unsupportedMethod, WalletErrorCodes.methodNotFound],
            decision: Decisions.walletSwitchFailureKeepsConnection,
          },
          target: 'switchingManually',
          actions: 'clearError',
        },
        {
          guard: { type: 'isUnrecognizedChainWithoutParams', params: ({ event }) => ({ error: event.error }) },
          description: '4902 without chain parameters in app config: the switch ends, the wallet stays connected on its chain.',
          meta: { walletCodes: [WalletErrorCodes.unrecognizedChain], decision: Decisions.walletSwitchFailureKeepsConnection },
          target: 'active',
          actions: [{ type: 'assignNamedError', params: { name: WalletErrorNames.chainParamsMissing } }, 'reportError'],
        },
        {
          guard: { type: 'isRequestPending', params: ({ event }) => ({ error: event.error }) },
          description: '-32002: a switch is already waiting in the wallet; the app waits for its answer instead of asking again.',
          meta: { walletCodes: [WalletErrorCodes.requestPending], decision: Decisions.walletSwitchFailureKeepsConnection },
          target: 'activating.awaitingWallet',
          actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
        },
        {
          description:
            'The member refused the switch (4001), the wallet answered 4902 again after the chain was added, or failed otherwise: the switch ends, the wallet stays connected on its chain.',
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
  description: 'wallet_addEthereumChain {...chain params, chainId: hex}, then the activation is retried once.',
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
          description: 'The wallet cannot add chains for the app either: the member switches by hand.',
          meta: {
            walletCodes: [WalletErrorCodes.unsupportedMethod, WalletErrorCodes.methodNotFound],
            decision: Decisions.walletSwitchFailureKeepsConnection,
          },
          target: 'switchingManually',
          actions: ['assignChainAdded', 'clearError'],
        },
        {
          guard: { type: 'isRequestPending', params: ({ event }) => ({ error: event.error }) },
          description: '-32002: an add-chain request is already waiting in the wallet; the app waits for its answer.',
          meta: { walletCodes: [WalletErrorCodes.requestPending], decision: Decisions.walletSwitchFailureKeepsConnection },
          target: 'activating.awaitingWallet',
          actions: ['assignChainAdded', { type: 'assignError', params: ({ event }) => ({ error: event.error }) }],
        },
        {
          description: 'The member refused to add the chain (4001), or the wallet failed: the wallet stays connected on its chain.',
          meta: { walletCodes: [WalletErrorCodes.userRejected], decision: Decisions.walletSwitchFailureKeepsConnection },
          target: 'active',
          actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'reportError'],
        },
      ],
    },
    listenToProvider,
  ],
});
