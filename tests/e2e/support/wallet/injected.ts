/**
 * The page side of the test wallet, added with context.addInitScript so it runs before the app in every page
 * and frame: an EIP-1193 provider whose request() goes to Node through an exposed binding, announced over
 * EIP-6963 (https://eips.ethereum.org/EIPS/eip-6963) at start and on every 'eip6963:requestProvider', like
 * johanneskares/wallet-mock src/installMockWallet.ts. Unlike that one it keeps real on/removeListener lists,
 * so Node can emit accountsChanged, chainChanged and disconnect, and it throws coded errors.
 *
 * The function goes to the page as source text (testWallet.ts): it must not use anything from module scope.
 */
import type { InjectOptions, PageControl, WalletAnswer, WalletRequest } from './protocol';

/**
 * Installs the provider in the page. Runs in the browser.
 *
 * @param options - binding and control names, EIP-6963 info, whether to set window.ethereum
 * @example
 * await context.addInitScript({ content: `(${installTestWalletInPage.toString()})(${JSON.stringify(options)})` });
 */
export function installTestWalletInPage(options: InjectOptions): void {
  type Listener = (...args: unknown[]) => void;
  type Binding = (request: WalletRequest) => Promise<WalletAnswer>;

  class ProviderRpcError extends Error {
    readonly code: number;
    readonly data: unknown;
    constructor(code: number, message: string, data?: unknown) {
      super(message);
      this.name = 'ProviderRpcError';
      this.code = code;
      this.data = data;
    }
  }

  const listeners = new Map<string, Set<Listener>>();
  const listenersOf = (event: string): Set<Listener> => {
    let set = listeners.get(event);
    if (!set) {
      set = new Set();
      listeners.set(event, set);
    }
    return set;
  };

  const provider = {
    isTestWallet: true,
    async request(args: unknown): Promise<unknown> {
      const method: unknown = typeof args === 'object' && args !== null ? Reflect.get(args, 'method') : undefined;
      if (typeof method !== 'string' || method === '') throw new ProviderRpcError(-32600, 'Invalid request: method must be a string.');
      const params: unknown = Reflect.get(args as object, 'params');
      // Looked up per call: Playwright may define the binding after this script started.
      const binding: unknown = Reflect.get(window, options.bindingName);
      if (typeof binding !== 'function') throw new ProviderRpcError(4900, 'The test wallet is not connected to Node.');
      const answer = await (binding as Binding)(params === undefined ? { method } : { method, params });
      if (answer.ok) return answer.result;
      throw new ProviderRpcError(answer.error.code, answer.error.message, answer.error.data);
    },
    on(event: string, listener: Listener) {
      listenersOf(event).add(listener);
      return provider;
    },
    removeListener(event: string, listener: Listener) {
      listenersOf(event).delete(listener);
      return provider;
    },
    off(event: string, listener: Listener) {
      return provider.removeListener(event, listener);
    },
  };

  const control: PageControl = {
    emit(event, payload) {
      const current = [...listenersOf(event)];
      for (const listener of current) {
        try {
          listener(payload);
        } catch (error) {
          // A throwing listener must not stop the others, as in Node's EventEmitter users expect from wallets.
          console.error('test wallet listener failed', error);
        }
      }
      return current.length;
    },
    listenerCount(event) {
      return listenersOf(event).size;
    },
  };
  Object.defineProperty(window, options.controlName, { value: control, configurable: true });
  if (options.setWindowEthereum) Object.defineProperty(window, 'ethereum', { value: provider, configurable: true, writable: true });

  const info = Object.freeze({ uuid: options.uuid, name: options.name, icon: options.icon, rdns: options.rdns });
  const announce = () => {
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
  };
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
}
