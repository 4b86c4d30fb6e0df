/**
 * The wallet connector (spec sections 4, 5 and 8). The member connects the wallet injected by the wallet browser;
 * the app finds it on demand, asks for accounts, and moves the wallet to the app's chain: it asks to switch, and
 * when the wallet may not know the chain (4902 in its several disguises, or an answer in any language without a
 * code the app knows) it adds the chain from app config and retries the activation once; a wallet that cannot
 * switch at all (4200, -32601) gets the member to switch by hand. A wallet that injects late gets a few seconds to
 * arrive. An eager connect at start only reads what the wallet already allows (eth_accounts) and falls back to idle
 * quietly, unless the wallet the member connected last is among several in the page: that one is read. Provider
 * events keep accounts and chain in step while connected.
 *
 * Active means chainId and accounts are set and no activation is running (spec section 3).
 *
 * The setup (context, events, actors, actions, guards) is in walletSetup.ts; the activation in activating.ts; the
 * switch and add-chain prompts in chainPrompts.ts; the member's own switch, for wallets that cannot switch for the
 * app, in manualSwitch.ts.
 */
import { WalletErrorCodes } from '../shared/errorNames';
import { notGuard } from '../shared/guards';
import { activating } from './activating';
import { addingChain, switchingChain } from './chainPrompts';
import { switchingManually } from './manualSwitch';
import { disconnectActions, eventAccounts, eventDisconnectError } from './disconnected';
import { initialContext, listenToProvider, walletSetup } from './walletSetup';

export type { AddChainParameters, ProviderEvent, ProviderInfo, WalletContext, WalletEvent } from './walletSetup';

/**
 * Builds the wallet machine. The app builds it as it starts its actors (src/actors/walletActors.ts), not when this
 * module loads; `walletMachine` below is the same definition for tests, diagrams and types. Marked free of side
 * effects, so a bundle that never reads `walletMachine` drops it: building machines was about a third of the entry
 * script's evaluation, one task of a phone's start-up (Lighthouse's Total Blocking Time).
 */
// @__NO_SIDE_EFFECTS__
export function createWalletMachine() {
  return walletSetup.createMachine({
    id: 'wallet',
    context: initialContext,
    initial: 'idle',
    states: {
      idle: {
        description: 'wallet.idle',
        initial: 'ready',
        states: {
          ready: { description: 'wallet.idle.ready' },
          noWallet: {
            description: 'wallet.idle.noWallet',
            invoke: { id: 'watchForProviders', src: 'watchForProviders' },
            on: { 'provider.detected': { target: 'ready', actions: 'clearError' } },
          },
        },
        on: {
          'user.connect': {
            target: 'activating',
            actions: { type: 'assignConnectRequest', params: ({ event }) => ({ chainId: event.chainId, chainParams: event.chainParams }) },
          },
          'app.connectEagerly': {
            target: 'activating',
            actions: { type: 'assignEagerRequest', params: ({ event }) => ({ providerId: event.providerId }) },
          },
        },
      },
      activating,
      switchingChain,
      addingChain,
      switchingManually,
      active: {
        description: 'wallet.active',
        // The wallet connected, whichever way: the one to reconnect to at the next start among several.
        entry: { type: 'rememberProvider', params: ({ context }) => ({ providerId: context.providerId }) },
        invoke: listenToProvider,
        on: {
          'user.connect': {
            guard: { type: 'isTargetChainDifferent', params: ({ event }) => ({ chainId: event.chainId }) },
            target: 'switchingChain',
            actions: { type: 'assignTarget', params: ({ event }) => ({ chainId: event.chainId, chainParams: event.chainParams }) },
          },
          'user.disconnect': { target: 'idle', actions: ['resetConnection', 'clearError', 'forgetProvider'] },
          'provider.accountsChanged': [
            {
              guard: notGuard({ type: 'hasAccounts', params: eventAccounts }),
              target: 'idle',
              actions: 'resetConnection',
            },
            { actions: { type: 'assignAccounts', params: ({ event }) => ({ accounts: event.accounts }) } },
          ],
          'provider.chainChanged': { actions: { type: 'assignChainId', params: ({ event }) => ({ chainId: event.chainId }) } },
          'provider.connect': { actions: { type: 'assignChainId', params: ({ event }) => ({ chainId: event.chainId }) } },
          'provider.disconnect': [
            {
              guard: { type: 'isReconnecting', params: eventDisconnectError },
              description: 'wallet.active:provider.disconnect[isReconnecting]',
              meta: { walletCodes: [WalletErrorCodes.reconnecting] },
              actions: [],
            },
            {
              meta: { walletCodes: [WalletErrorCodes.disconnected, WalletErrorCodes.chainDisconnected] },
              target: 'idle',
              actions: disconnectActions,
            },
          ],
        },
      },
    },
  });
}

export const walletMachine = createWalletMachine();

export type WalletMachine = typeof walletMachine;
