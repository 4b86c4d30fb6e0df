/**
 * What the wallet machine does when the wallet goes away: a provider disconnect, or every account dropped. Used by
 * the activation's wait, the chain prompts and the active state alike.
 */
import { WalletErrorNames } from '../shared/errorNames';
import type { WalletEvent } from './walletSetup';

type DisconnectEvent = Extract<WalletEvent, { type: 'provider.disconnect' }>;
type AccountsEvent = Extract<WalletEvent, { type: 'provider.accountsChanged' }>;

/** Forget the connection and keep WalletDisconnectedError with the wallet's code (4900, 4901, ...) for the UI. */
export const disconnectActions = [
  'resetConnection',
  {
    type: 'assignNamedError',
    params: ({ event }: { event: DisconnectEvent }) => ({ name: WalletErrorNames.disconnected, code: event.error.code }),
  },
  'reportError',
] as const;

/** The guard params of hasAccounts for a provider.accountsChanged event. */
export const eventAccounts = ({ event }: { event: AccountsEvent }) => ({ accounts: event.accounts });

/** The guard params of isReconnecting for a provider.disconnect event. */
export const eventDisconnectError = ({ event }: { event: DisconnectEvent }) => ({ error: event.error });
