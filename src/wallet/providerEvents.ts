import type { Address } from 'viem';
import { WalletErrorCodes } from '../../machines/shared/errorNames';
import { normalizeAccounts } from './accounts';
import type { Eip1193Listener, Eip1193Provider } from './types';

/**
 * Provider events as the wallet machine receives them (spec section 4). Chain ids stay raw: the machine parses
 * them (machines/shared/chainId.ts), since wallets send hex, numbers and decimal strings.
 */
export type ProviderEvent =
  | { type: 'provider.accountsChanged'; accounts: Address[] }
  | { type: 'provider.chainChanged'; chainId: unknown }
  | { type: 'provider.connect'; chainId: unknown }
  | { type: 'provider.disconnect'; error: { code: number; message: string } };

/** Receives each provider event, e.g. a callback actor's sendBack. */
export type ProviderEventSender = (event: ProviderEvent) => void;
export type SubscribeToProviderReturnType = () => void;
/** Subscribing never throws on the wallet's payloads: odd ones are read as empty or raw values. */
export type SubscribeToProviderErrorType = never;

/** EIP-1193 4900: disconnected. Used when a wallet emits 'disconnect' without a proper error. */
const disconnectedCode = WalletErrorCodes.disconnected;

/**
 * Listens to the wallet's EIP-1193 events and sends them to the machine as provider.* events:
 * accountsChanged (checksummed, junk dropped), chainChanged and connect (raw chain id), disconnect
 * ({ code, message }; MetaMask's 1013 "reconnecting" is passed on, the machine ignores it).
 *
 * @param provider - The wallet's provider.
 * @param send - Receives each event, e.g. a callback actor's sendBack.
 * @returns A function that removes every listener it added.
 * @example
 * const unsubscribe = subscribeToProvider(provider, (event) => actor.send(event));
 */
export function subscribeToProvider(provider: Eip1193Provider, send: ProviderEventSender): SubscribeToProviderReturnType {
  const listeners: Record<string, Eip1193Listener> = {
    accountsChanged: (accounts) => send({ type: 'provider.accountsChanged', accounts: normalizeAccounts(accounts) }),
    chainChanged: (chainId) => send({ type: 'provider.chainChanged', chainId }),
    connect: (info) => send({ type: 'provider.connect', chainId: readField(info, 'chainId') }),
    disconnect: (error) => {
      const code = readField(error, 'code');
      const message = readField(error, 'message');
      send({
        type: 'provider.disconnect',
        error: {
          code: typeof code === 'number' ? code : disconnectedCode,
          message: typeof message === 'string' ? message : '',
        },
      });
    },
  };
  for (const [event, listener] of Object.entries(listeners)) provider.on(event, listener);
  return () => {
    for (const [event, listener] of Object.entries(listeners)) provider.removeListener(event, listener);
  };
}

function readField(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && key in value ? Reflect.get(value, key) : undefined;
}
