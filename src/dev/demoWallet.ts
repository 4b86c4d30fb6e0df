/**
 * A demo wallet for desktop browsers without one, in development only (`npm run dev`, then open any page with
 * `?demoWallet`; `?demoWallet=off` removes it). It behaves like a MetaMask-style extension (simulatedWallet.ts): it
 * announces itself by EIP-6963, starts on Ethereum (chain 1) so the app's switch-and-add-chain flow shows, answers
 * 4902 for chains it does not know, and signs with viem's local account. Its key and state stay in this browser's localStorage
 * (DEMO_WALLET). main.tsx imports this module only under `import.meta.env.DEV`, so production builds do not
 * contain it (tests/e2e/demoWalletAbsent.spec.ts checks dist/spa).
 */
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import * as z from 'zod/mini';
import type { Eip1193Listener, Eip1193Provider } from '../wallet/types';
import { DEV_CHAIN_ID, fundFromDevChain } from './devChainFaucet';
import { SimulatedWallet } from './simulatedWallet';

export const DEMO_WALLET_KEY = 'DEMO_WALLET';
export const DEMO_WALLET_RDNS = 'dev.member-dapp.demo';

const storedStateSchema = z.object({
  privateKey: z.string().check(z.regex(/^0x[0-9a-f]{64}$/)),
  connected: z.boolean(),
  chainId: z.number().check(z.int(), z.positive()),
  knownChainIds: z.array(z.number().check(z.int(), z.positive())),
});
type DemoWalletState = z.infer<typeof storedStateSchema>;

/** The storage the wallet keeps its state in (localStorage in the page). */
export interface DemoWalletStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

function readState(storage: DemoWalletStorage): DemoWalletState {
  try {
    const parsed = storedStateSchema.safeParse(JSON.parse(storage.getItem(DEMO_WALLET_KEY) ?? 'null'));
    if (parsed.success) return parsed.data;
  } catch {
    // Unreadable state: start a new wallet.
  }
  return { privateKey: generatePrivateKey(), connected: false, chainId: 1, knownChainIds: [1] };
}

/**
 * Creates the demo wallet's provider over a storage. A second provider over the same storage is the same wallet
 * (a reload). Its answers are src/dev/simulatedWallet.ts, as the e2e test wallet's are; a connect also emits
 * accountsChanged, as MetaMask does.
 *
 * With `chain`, the wallet reads from and sends transactions to that node (SimulatedWalletOptions.rpcUrl), and before
 * its first transaction on the development chain it funds itself there once (`chain.fund`: gas money and the token,
 * as a faucet would), so a member can top up from a browser without a wallet.
 *
 * @param storage - where the key and state live
 * @param chain - the node's URL, the development chain's id and how to fund an address there
 * @returns the EIP-1193 provider and the account's address
 * @example
 * const { provider, address } = createDemoWalletProvider(localStorage);
 */
export function createDemoWalletProvider(
  storage: DemoWalletStorage,
  chain?: { rpcUrl: string; devChainId: number; fund: (address: Hex) => Promise<void> },
): { provider: Eip1193Provider; address: Hex } {
  const { privateKey, connected, chainId, knownChainIds } = readState(storage);
  let funded: Promise<void> | undefined;
  const listeners = new Map<string, Set<Eip1193Listener>>();
  const wallet = new SimulatedWallet({
    accounts: [privateKeyToAccount(privateKey as Hex)],
    chainId,
    knownChainIds,
    connected,
    emit: (event, payload) => {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    ...(chain ? { rpcUrl: chain.rpcUrl } : {}),
  });
  const save = () =>
    storage.setItem(
      DEMO_WALLET_KEY,
      JSON.stringify({ privateKey, connected: wallet.isConnected, chainId: wallet.chainId, knownChainIds: wallet.knownChainIds } satisfies DemoWalletState),
    );
  save();

  const provider: Eip1193Provider = {
    request: async (args) => {
      const wasConnected = wallet.isConnected;
      if (chain && wallet.chainId === chain.devChainId && (args.method === 'eth_call' || args.method === 'eth_sendTransaction')) {
        // A failed funding is tried again at the next request.
        funded ??= chain.fund(wallet.address).catch((error: unknown) => {
          funded = undefined;
          throw error;
        });
        await funded;
      }
      try {
        return await wallet.answer(args);
      } finally {
        save();
        if (!wasConnected && wallet.isConnected) for (const listener of listeners.get('accountsChanged') ?? []) listener([wallet.address]);
      }
    },
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return provider;
    },
    removeListener: (event, listener) => {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  };
  return { provider, address: wallet.address };
}

/** The part of `window` the installer uses. */
export interface DemoWalletWindow {
  location: { search: string; origin?: string };
  localStorage: DemoWalletStorage;
  addEventListener: EventTarget['addEventListener'];
  dispatchEvent: EventTarget['dispatchEvent'];
}

const icon = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4b5563"/><text x="16" y="21" font-size="13" text-anchor="middle" fill="#fff" font-family="sans-serif">DEV</text></svg>',
)}`;

/**
 * Installs the demo wallet when the page asks for it: `?demoWallet` turns it on (and it stays on in this browser),
 * `?demoWallet=off` turns it off and forgets its key. Once on, it announces itself (EIP-6963) now and whenever the
 * app asks for wallets.
 *
 * @param win - the page's window
 * @returns the demo account's address when installed, else undefined
 * @example
 * if (import.meta.env.DEV) void import('./dev/demoWallet').then(({ installDemoWalletIfAsked }) => installDemoWalletIfAsked(window));
 */
export function installDemoWalletIfAsked(win: DemoWalletWindow): Hex | undefined {
  const asked = new URLSearchParams(win.location.search).get('demoWallet');
  if (asked === 'off') {
    win.localStorage.removeItem(DEMO_WALLET_KEY);
    return undefined;
  }
  if (asked === null && win.localStorage.getItem(DEMO_WALLET_KEY) === null) return undefined;

  // Under `npm run dev` the node is behind the dev server's /dev-chain (vite.config.ts).
  const rpcUrl = win.location.origin ? `${win.location.origin}/dev-chain` : undefined;
  const { provider, address } = createDemoWalletProvider(
    win.localStorage,
    rpcUrl
      ? {
          rpcUrl,
          devChainId: DEV_CHAIN_ID,
          fund: async (account) => {
            const answer = (await (await fetch('/api/dapp/dappParam')).json()) as { result?: { token?: { address: Hex; decimals: number } } };
            const token = answer.result?.token;
            if (token) await fundFromDevChain(rpcUrl, { address: account, token: token.address, decimals: token.decimals });
          },
        }
      : undefined,
  );
  const detail = Object.freeze({
    info: Object.freeze({ uuid: crypto.randomUUID(), name: 'Demo wallet (development)', icon, rdns: DEMO_WALLET_RDNS }),
    provider,
  });
  const announce = () => win.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  win.addEventListener('eip6963:requestProvider', announce);
  announce();
  return address;
}
