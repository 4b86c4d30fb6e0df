/**
 * The e2e test wallet, Node side (docs/architecture.md, "Testing in a real browser"): the keys stay here (viem privateKeyToAccount); the page gets
 * the provider of injected.ts, whose requests arrive through an exposed binding. The wallet's answers are
 * src/dev/simulatedWallet.ts (shared with the demo wallet): its chain and known chains (4902 for others;
 * wallet_addEthereumChain adds and switches like MetaMask), its accounts and personal_sign. This file adds what a
 * test decides and sees: coded failures for the next request of a method (4001 and others), events emitted into
 * every page (accountsChanged, chainChanged, disconnect), a record of every request, and the tokens a page asked it
 * to list (EIP-747 wallet_watchAsset, answered as MetaMask does once the member approves: true).
 */
import { randomUUID } from 'node:crypto';
import type { Address, Hex, PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { BrowserContext, Page } from 'playwright-core';
import { SimulatedWallet, WalletRpcError, rpcErrors } from '../../../../src/dev/simulatedWallet';
import type { AddEthereumChainParameter, RpcErrorShape, SignedMessage } from '../../../../src/dev/simulatedWallet';
import { installTestWalletInPage } from './injected';
import { anvilKeys } from './anvilKeys';
import type { InjectOptions, PageControl, WalletAnswer, WalletRequest } from './protocol';

export { rpcErrors };
export type { AddEthereumChainParameter, SignedMessage };

export interface RecordedRequest {
  method: string;
  params: unknown;
  /** URL of the page that asked. */
  url: string;
  answer: WalletAnswer;
}

/** A token a page asked the wallet to list (EIP-747 wallet_watchAsset's options). */
export interface WatchedAsset {
  address: Address;
  symbol: string;
  decimals: number;
  image?: string;
}

export interface TestWalletOptions {
  /** Private keys of the wallet's accounts; default the first three anvil keys. The first is selected. */
  privateKeys?: readonly Hex[];
  /** The chain the wallet is on; default 1 (Ethereum). */
  chainId?: number;
  /** Chains the wallet knows besides chainId; switching to any other answers 4902. */
  knownChainIds?: readonly number[];
  /** Whether the site is already connected (eth_accounts answers without eth_requestAccounts); default false. */
  connected?: boolean;
  /** Also set window.ethereum to the same provider; default false (EIP-6963 only). */
  setWindowEthereum?: boolean;
  /**
   * How the provider reaches the page (src/wallet/walletQuirks.ts): 'initScript' (default) runs before the page
   * like an extension's content script; 'inlineScript' puts an inline <script> at the start of the document's
   * <head>, as Android WebView wallets that rewrite the page do, so the page's CSP applies to it; 'onCall' sets
   * window.ethereum late and fires 'ethereum#initialized', as MetaMask Mobile may (with a late EIP-6963
   * announcement too), when the test calls `window.injectTestWallet()`: the wallet arrives after what the test
   * waited for however slow the machine is (a fixed delay raced the page's start on a busy CI machine).
   */
  injection?: 'initScript' | 'inlineScript' | 'onCall';
  /** The test node the wallet reads from and sends transactions to (SimulatedWalletOptions.rpcUrl). */
  rpcUrl?: string;
  /**
   * How the wallet announces itself over EIP-6963; default Test Wallet, dev.member.testwallet. A second wallet in
   * the same context (a member with two wallet extensions) needs a name and rdns of its own.
   */
  announce?: { name: string; rdns: string };
}

const defaultAnnouncement = { name: 'Test Wallet', rdns: 'dev.member.testwallet' };

/**
 * A wallet for one browser context.
 *
 * @example
 * const wallet = await TestWallet.install(context, { chainId: 1 });
 * wallet.rejectNext('personal_sign');
 * await wallet.switchAccount(1);
 */
export class TestWallet {
  /** Every request, in order, with its answer. */
  readonly requests: RecordedRequest[] = [];
  /** Every token the wallet listed for a page (wallet_watchAsset), in order. */
  readonly watchedAssets: WatchedAsset[] = [];

  private readonly wallet: SimulatedWallet;
  /** The window property through which Node emits events into this wallet's pages (one per wallet in a context). */
  private readonly controlName: string;
  private readonly failures: Array<{ method: string; error: RpcErrorShape }> = [];
  private readonly alwaysFailing = new Map<string, RpcErrorShape>();

  private constructor(
    private readonly context: BrowserContext,
    options: TestWalletOptions,
  ) {
    this.controlName = `__testWalletControl_${namePart(options)}`;
    const keys = options.privateKeys ?? anvilKeys.slice(0, 3);
    if (keys.length === 0) throw new Error('the test wallet needs at least one key');
    this.wallet = new SimulatedWallet({
      accounts: keys.map((key) => privateKeyToAccount(key)),
      chainId: options.chainId ?? 1,
      knownChainIds: options.knownChainIds ?? [],
      connected: options.connected ?? false,
      emit: (event, payload) => this.emit(event, payload),
      ...(options.rpcUrl ? { rpcUrl: options.rpcUrl } : {}),
    });
  }

  /**
   * Creates the wallet and injects it into every page the context opens from now on.
   *
   * @param context - a fresh browser context (before its first page.goto)
   * @param options - accounts, chain, known chains, connection, window.ethereum
   * @returns the wallet
   * @example
   * const wallet = await TestWallet.install(context);
   */
  static async install(context: BrowserContext, options: TestWalletOptions = {}): Promise<TestWallet> {
    const wallet = new TestWallet(context, options);
    const bindingName = `__testWalletRequest_${namePart(options)}`;
    await context.exposeBinding(bindingName, (source: { page: Page }, request: WalletRequest) => wallet.handle(source.page, request));
    const { name, rdns } = options.announce ?? defaultAnnouncement;
    const inject: InjectOptions = {
      bindingName,
      controlName: wallet.controlName,
      uuid: randomUUID(),
      name,
      rdns,
      icon: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'><rect width='8' height='8' fill='%23f6851b'/></svg>",
      setWindowEthereum: (options.setWindowEthereum ?? false) || options.injection === 'onCall',
    };
    // Sent as source text with a no-op __name: transpilers that keep function names (esbuild's keepNames, as
    // tsx runs it) wrap inner functions in __name(), which does not exist in the page.
    const source = `(() => { const __name = (target) => target; (${installTestWalletInPage.toString()})(${JSON.stringify(inject)}); })();`;
    const injection = options.injection ?? 'initScript';
    if (injection === 'inlineScript') await injectIntoDocuments(context, source);
    else await context.addInitScript({ content: injectionScript(source, injection) });
    return wallet;
  }

  /** The wallet's accounts; the first is selected at start. */
  get accounts(): readonly PrivateKeyAccount[] {
    return this.wallet.accounts;
  }

  /** The selected account's address. */
  get address(): Address {
    return this.wallet.address;
  }

  /** The chain the wallet is on. */
  get chainId(): number {
    return this.wallet.chainId;
  }

  /** Whether the site may see the accounts (eth_requestAccounts was approved). */
  get isConnected(): boolean {
    return this.wallet.isConnected;
  }

  /** Every wallet_addEthereumChain parameter the wallet accepted. */
  get addedChains(): readonly AddEthereumChainParameter[] {
    return this.wallet.addedChains;
  }

  /** Every personal_sign the wallet signed. */
  get signedMessages(): readonly SignedMessage[] {
    return this.wallet.signedMessages;
  }

  knowsChain(chainId: number): boolean {
    return this.wallet.knowsChain(chainId);
  }

  /** Requests of one method, in order. */
  requestsOf(method: string): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method);
  }

  /**
   * The member says no to the next request of this method (EIP-1193 4001).
   *
   * @example wallet.rejectNext('personal_sign');
   */
  rejectNext(method: string): this {
    return this.failNext(method, rpcErrors.userRejected());
  }

  /**
   * The next request of this method fails with the given error (e.g. rpcErrors.requestPending).
   *
   * @example wallet.failNext('eth_requestAccounts', rpcErrors.requestPending('eth_requestAccounts'));
   */
  failNext(method: string, error: RpcErrorShape): this {
    this.failures.push({ method, error });
    return this;
  }

  /**
   * Every request of this method fails with the given error from now on (a wallet that cannot do it at all, e.g.
   * imToken before 2.10 answering 4200 to wallet_switchEthereumChain).
   *
   * @example wallet.failAlways('wallet_switchEthereumChain', { code: 4200, message: 'Unsupported method' });
   */
  failAlways(method: string, error: RpcErrorShape): this {
    this.alwaysFailing.set(method, error);
    return this;
  }

  /**
   * The member picks another account in the wallet: a connected site gets accountsChanged with it.
   *
   * @param account - index into accounts, or an address among them
   * @example await wallet.switchAccount(1);
   */
  switchAccount(account: number | Address): Promise<void> {
    return this.wallet.switchAccount(account);
  }

  /**
   * The member switches the network in the wallet itself; the chain becomes known and chainChanged is emitted.
   *
   * @example await wallet.switchChain(56);
   */
  switchChain(chainId: number): Promise<void> {
    return this.wallet.switchChain(chainId);
  }

  /**
   * The wallet loses its connection: the site is forgotten and 'disconnect' is emitted (default code 4900).
   *
   * @example await wallet.disconnect();
   */
  disconnect(error?: RpcErrorShape): Promise<void> {
    return this.wallet.disconnect(error);
  }

  /**
   * Calls the provider's listeners for an event in every open page of the context.
   *
   * @returns how many listeners ran, over all pages
   * @example await wallet.emit('chainChanged', '0x38');
   */
  async emit(event: string, payload: unknown): Promise<number> {
    const counts = await Promise.all(
      this.context.pages().map((page) =>
        page
          .evaluate(
            ({ name, event: eventName, payload: value }) => {
              const control = Reflect.get(window, name) as PageControl | undefined;
              return control ? control.emit(eventName, value) : 0;
            },
            { name: this.controlName, event, payload },
          )
          // A page that is closing or navigating has no listeners left to tell.
          .catch(() => 0),
      ),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  }

  private async handle(page: Page, request: WalletRequest): Promise<WalletAnswer> {
    let answer: WalletAnswer;
    try {
      answer = { ok: true, result: await this.answer(request) };
    } catch (error) {
      if (!(error instanceof WalletRpcError)) throw error;
      answer = { ok: false, error: error.shape };
    }
    this.requests.push({ method: request.method, params: request.params, url: page.url(), answer });
    return answer;
  }

  private async answer(request: WalletRequest): Promise<unknown> {
    const failure = this.failures.findIndex((entry) => entry.method === request.method);
    if (failure >= 0) {
      const [entry] = this.failures.splice(failure, 1);
      if (entry) throw new WalletRpcError(entry.error);
    }
    const always = this.alwaysFailing.get(request.method);
    if (always) throw new WalletRpcError(always);
    if (request.method === 'wallet_watchAsset') return this.watchAsset(request.params);
    return this.wallet.answer(request);
  }

  /** EIP-747: an ERC20 with an address, a symbol of up to 11 characters and its decimals; listed, answered true. */
  private watchAsset(params: unknown): true {
    const { type, options } = (params ?? {}) as { type?: unknown; options?: Partial<Record<keyof WatchedAsset, unknown>> };
    const { address, symbol, decimals, image } = options ?? {};
    const valid =
      type === 'ERC20' &&
      typeof address === 'string' &&
      /^0x[0-9a-fA-F]{40}$/.test(address) &&
      typeof symbol === 'string' &&
      symbol.length >= 1 &&
      symbol.length <= 11 &&
      typeof decimals === 'number' &&
      Number.isInteger(decimals) &&
      decimals >= 0 &&
      decimals <= 36;
    if (!valid) throw new WalletRpcError(rpcErrors.invalidParams(`wallet_watchAsset: ${JSON.stringify(params)}`));
    this.watchedAssets.push({ address: address as Address, symbol, decimals, ...(typeof image === 'string' ? { image } : {}) });
    return true;
  }
}

/** The wallet's rdns as a part of a window property's name. */
function namePart(options: TestWalletOptions): string {
  return (options.announce ?? defaultAnnouncement).rdns.replace(/[^A-Za-z0-9]/g, '_');
}

/**
 * The init script that brings the provider's source into the page after load (see TestWalletOptions.injection).
 *
 * @param source - the provider's install code
 * @param injection - 'initScript' or 'onCall'
 * @returns the init script's text
 */
function injectionScript(source: string, injection: 'initScript' | 'onCall'): string {
  if (injection === 'initScript') return source;
  return `window.injectTestWallet = () => {
    ${source}
    window.dispatchEvent(new Event('ethereum#initialized'));
  };`;
}

/**
 * Brings an 'onCall' wallet into the page now (see TestWalletOptions.injection).
 *
 * @example await injectTestWalletNow(page);
 */
export async function injectTestWalletNow(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { injectTestWallet: () => void }).injectTestWallet());
}

/**
 * Rewrites every HTML document the context loads so that the provider is an inline <script> first in <head>, the
 * way WebView wallets that inject into the page's HTML do. The server's headers (its CSP included) are kept.
 *
 * @param context - the browser context
 * @param source - the provider's install code
 */
async function injectIntoDocuments(context: BrowserContext, source: string): Promise<void> {
  // "</" would end the inline script early; "<\/" is the same string to JavaScript.
  const inline = `<script>${source.replaceAll('</', '<\\/')}</script>`;
  await context.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const response = await route.fetch();
    const html = await response.text();
    const headers = { ...response.headers() };
    // The body is sent decoded and rewritten: its old encoding and length no longer apply.
    delete headers['content-encoding'];
    delete headers['content-length'];
    return route.fulfill({ response, headers, body: html.replace(/<head[^>]*>/i, (head) => `${head}${inline}`) });
  });
}
