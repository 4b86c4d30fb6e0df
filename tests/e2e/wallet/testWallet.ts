/**
 * The e2e test wallet, Node side (STYLE.md, "Tests"): the keys stay here (viem privateKeyToAccount); the page gets
 * the provider of injected.ts, whose requests arrive through an exposed binding. The test decides what the
 * wallet knows and answers: its chain and known chains (4902 for others; wallet_addEthereumChain adds and
 * switches like MetaMask), its accounts, and coded failures for the next request of a method (4001 and others).
 * It emits accountsChanged, chainChanged and disconnect into every page, and records every request.
 */
import { randomUUID } from 'node:crypto';
import { getAddress, hexToBytes, isAddress, isAddressEqual, isHex, toHex } from 'viem';
import type { Address, Hex, PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { BrowserContext, Page } from 'playwright-core';
import { installTestWalletInPage } from './injected';
import { anvilKeys } from './keys';
import type { InjectOptions, PageControl, RpcErrorShape, WalletAnswer, WalletRequest } from './protocol';

/** EIP-3085 wallet_addEthereumChain parameter, as the wallet received it. */
export interface AddEthereumChainParameter {
  chainId: string;
  chainName: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  rpcUrls: string[];
  blockExplorerUrls?: string[];
  iconUrls?: string[];
}

export interface RecordedRequest {
  method: string;
  params: unknown;
  /** URL of the page that asked. */
  url: string;
  answer: WalletAnswer;
}

export interface SignedMessage {
  address: Address;
  /** The text the member was shown (a 0x message decoded as UTF-8). */
  message: string;
  signature: Hex;
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
}

/** EIP-1193 and EIP-1474 errors, with the words MetaMask uses. */
export const rpcErrors = {
  userRejected: (): RpcErrorShape => ({ code: 4001, message: 'User rejected the request.' }),
  unauthorized: (): RpcErrorShape => ({ code: 4100, message: 'The requested account and/or method has not been authorized by the user.' }),
  unsupportedMethod: (method: string): RpcErrorShape => ({ code: 4200, message: `The Provider does not support the requested method: ${method}.` }),
  disconnected: (): RpcErrorShape => ({ code: 4900, message: 'The Provider is disconnected from all chains.' }),
  unrecognizedChain: (chainId: string): RpcErrorShape => ({
    code: 4902,
    message: `Unrecognized chain ID "${chainId}". Try adding the chain using wallet_addEthereumChain first.`,
  }),
  invalidParams: (details: string): RpcErrorShape => ({ code: -32602, message: `Invalid parameters: ${details}` }),
  requestPending: (method: string): RpcErrorShape => ({ code: -32002, message: `Request of type '${method}' already pending. Please wait.` }),
};

class RpcError extends Error {
  constructor(readonly shape: RpcErrorShape) {
    super(shape.message);
  }
}

const bindingName = '__testWalletRequest';
const controlName = '__testWalletControl';

/**
 * A wallet for one browser context.
 *
 * @example
 * const wallet = await TestWallet.install(context, { chainId: 1 });
 * wallet.rejectNext('personal_sign');
 * await wallet.switchAccount(1);
 */
export class TestWallet {
  readonly accounts: readonly PrivateKeyAccount[];
  /** Every request, in order, with its answer. */
  readonly requests: RecordedRequest[] = [];
  /** Every wallet_addEthereumChain parameter the wallet accepted. */
  readonly addedChains: AddEthereumChainParameter[] = [];
  /** Every personal_sign the wallet signed. */
  readonly signedMessages: SignedMessage[] = [];

  private currentChainId: number;
  private readonly knownChains: Set<number>;
  private selectedIndex = 0;
  private connected: boolean;
  private readonly failures: Array<{ method: string; error: RpcErrorShape }> = [];

  private constructor(
    private readonly context: BrowserContext,
    options: TestWalletOptions,
  ) {
    const keys = options.privateKeys ?? anvilKeys.slice(0, 3);
    if (keys.length === 0) throw new Error('the test wallet needs at least one key');
    this.accounts = keys.map((key) => privateKeyToAccount(key));
    this.currentChainId = options.chainId ?? 1;
    this.knownChains = new Set([this.currentChainId, ...(options.knownChainIds ?? [])]);
    this.connected = options.connected ?? false;
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
    await context.exposeBinding(bindingName, (source: { page: Page }, request: WalletRequest) => wallet.handle(source.page, request));
    const inject: InjectOptions = {
      bindingName,
      controlName,
      uuid: randomUUID(),
      name: 'Test Wallet',
      rdns: 'dev.member.testwallet',
      icon: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'><rect width='8' height='8' fill='%23f6851b'/></svg>",
      setWindowEthereum: options.setWindowEthereum ?? false,
    };
    // Sent as source text with a no-op __name: transpilers that keep function names (esbuild's keepNames, as
    // tsx runs it) wrap inner functions in __name(), which does not exist in the page.
    const source = `(() => { const __name = (target) => target; (${installTestWalletInPage.toString()})(${JSON.stringify(inject)}); })();`;
    await context.addInitScript({ content: source });
    return wallet;
  }

  /** The selected account's address. */
  get address(): Address {
    return this.selected.address;
  }

  /** The chain the wallet is on. */
  get chainId(): number {
    return this.currentChainId;
  }

  /** Whether the site may see the accounts (eth_requestAccounts was approved). */
  get isConnected(): boolean {
    return this.connected;
  }

  knowsChain(chainId: number): boolean {
    return this.knownChains.has(chainId);
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
   * The member picks another account in the wallet: a connected site gets accountsChanged with it.
   *
   * @param account - index into accounts, or an address among them
   * @example await wallet.switchAccount(1);
   */
  async switchAccount(account: number | Address): Promise<void> {
    const index = typeof account === 'number' ? account : this.accounts.findIndex((candidate) => isAddressEqual(candidate.address, account));
    if (index < 0 || index >= this.accounts.length) throw new Error(`the test wallet has no account ${String(account)}`);
    this.selectedIndex = index;
    if (this.connected) await this.emit('accountsChanged', [this.address]);
  }

  /**
   * The member switches the network in the wallet itself; the chain becomes known and chainChanged is emitted.
   *
   * @example await wallet.switchChain(56);
   */
  async switchChain(chainId: number): Promise<void> {
    this.knownChains.add(chainId);
    await this.moveToChain(chainId);
  }

  /**
   * The wallet loses its connection: the site is forgotten and 'disconnect' is emitted (default code 4900).
   *
   * @example await wallet.disconnect();
   */
  async disconnect(error: RpcErrorShape = rpcErrors.disconnected()): Promise<void> {
    this.connected = false;
    await this.emit('disconnect', error);
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
            { name: controlName, event, payload },
          )
          // A page that is closing or navigating has no listeners left to tell.
          .catch(() => 0),
      ),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  }

  private get selected(): PrivateKeyAccount {
    const account = this.accounts[this.selectedIndex];
    if (!account) throw new Error('no selected account');
    return account;
  }

  private async moveToChain(chainId: number): Promise<void> {
    if (chainId === this.currentChainId) return;
    this.currentChainId = chainId;
    await this.emit('chainChanged', toHex(chainId));
  }

  private async handle(page: Page, request: WalletRequest): Promise<WalletAnswer> {
    let answer: WalletAnswer;
    try {
      answer = { ok: true, result: await this.answer(request) };
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      answer = { ok: false, error: error.shape };
    }
    this.requests.push({ method: request.method, params: request.params, url: page.url(), answer });
    return answer;
  }

  private async answer({ method, params }: WalletRequest): Promise<unknown> {
    const failure = this.failures.findIndex((entry) => entry.method === method);
    if (failure >= 0) {
      const [entry] = this.failures.splice(failure, 1);
      if (entry) throw new RpcError(entry.error);
    }
    switch (method) {
      case 'eth_chainId':
        return toHex(this.currentChainId);
      case 'net_version':
        return String(this.currentChainId);
      case 'eth_accounts':
        return this.connected ? [this.address] : [];
      case 'eth_requestAccounts':
        this.connected = true;
        return [this.address];
      case 'wallet_switchEthereumChain':
        return this.switchEthereumChain(params);
      case 'wallet_addEthereumChain':
        return this.addEthereumChain(params);
      case 'personal_sign':
        return this.personalSign(params);
      default:
        throw new RpcError(rpcErrors.unsupportedMethod(method));
    }
  }

  private async switchEthereumChain(params: unknown): Promise<null> {
    const chainIdHex = readChainIdParam(params);
    const chainId = Number.parseInt(chainIdHex, 16);
    if (!this.knownChains.has(chainId)) throw new RpcError(rpcErrors.unrecognizedChain(chainIdHex));
    await this.moveToChain(chainId);
    return null;
  }

  /** Checks the parameter as MetaMask does (EIP-3085), adds the chain and switches to it. */
  private async addEthereumChain(params: unknown): Promise<null> {
    const parameter = readAddChainParam(params);
    this.addedChains.push(parameter);
    const chainId = Number.parseInt(parameter.chainId, 16);
    this.knownChains.add(chainId);
    await this.moveToChain(chainId);
    return null;
  }

  /** personal_sign [message, address]: a 0x message is decoded to text first, as wallets show it. */
  private async personalSign(params: unknown): Promise<Hex> {
    if (!Array.isArray(params) || params.length < 2) throw new RpcError(rpcErrors.invalidParams('personal_sign expects [message, address]'));
    const [rawMessage, rawAddress] = params as unknown[];
    if (typeof rawMessage !== 'string') throw new RpcError(rpcErrors.invalidParams('the message must be a string'));
    if (typeof rawAddress !== 'string' || !isAddress(rawAddress, { strict: false })) {
      throw new RpcError(rpcErrors.invalidParams('the second parameter must be an address'));
    }
    if (!this.connected || !isAddressEqual(getAddress(rawAddress), this.address)) throw new RpcError(rpcErrors.unauthorized());
    const account = this.selected;
    const text = isHex(rawMessage) ? decodeUtf8(rawMessage) : rawMessage;
    const signature =
      text === undefined ? await account.signMessage({ message: { raw: rawMessage as Hex } }) : await account.signMessage({ message: text });
    this.signedMessages.push({ address: account.address, message: text ?? rawMessage, signature });
    return signature;
  }
}

function decodeUtf8(hex: Hex): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(hexToBytes(hex));
  } catch {
    return undefined;
  }
}

const hexChainId = /^0x[1-9a-f][0-9a-f]*$/;

function readChainIdParam(params: unknown): string {
  const first: unknown = Array.isArray(params) ? params[0] : undefined;
  const chainId: unknown = typeof first === 'object' && first !== null ? Reflect.get(first, 'chainId') : undefined;
  if (typeof chainId !== 'string' || !hexChainId.test(chainId)) {
    throw new RpcError(rpcErrors.invalidParams(`expected [{ chainId: hex string without leading zeros }], got ${JSON.stringify(params)}`));
  }
  return chainId;
}

function readAddChainParam(params: unknown): AddEthereumChainParameter {
  readChainIdParam(params);
  const first = (params as unknown[])[0] as Record<string, unknown>;
  const problems: string[] = [];
  const { chainName, nativeCurrency, rpcUrls, blockExplorerUrls, iconUrls } = first;
  if (typeof chainName !== 'string' || chainName.trim() === '') problems.push('chainName');
  const currency = typeof nativeCurrency === 'object' && nativeCurrency !== null ? (nativeCurrency as Record<string, unknown>) : null;
  if (!currency || typeof currency.name !== 'string' || typeof currency.symbol !== 'string' || currency.decimals !== 18) {
    problems.push('nativeCurrency { name, symbol, decimals: 18 }');
  }
  const isUrlList = (value: unknown): value is string[] =>
    Array.isArray(value) && value.every((url) => typeof url === 'string' && /^https:\/\//.test(url));
  if (!isUrlList(rpcUrls) || rpcUrls.length === 0) problems.push('rpcUrls (https)');
  if (blockExplorerUrls !== undefined && !isUrlList(blockExplorerUrls)) problems.push('blockExplorerUrls (https)');
  if (iconUrls !== undefined && !Array.isArray(iconUrls)) problems.push('iconUrls');
  if (problems.length > 0) throw new RpcError(rpcErrors.invalidParams(`wallet_addEthereumChain: ${problems.join(', ')}`));
  return first as unknown as AddEthereumChainParameter;
}
