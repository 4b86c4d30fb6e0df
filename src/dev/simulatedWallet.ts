/**
 * A wallet's answers to EIP-1193 requests, as MetaMask gives them, over viem local accounts: the part the demo
 * wallet (src/dev/demoWallet.ts) and the e2e test wallet (tests/e2e/support/wallet/testWallet.ts) share. It knows its
 * chain and the chains it was told about (4902 for others; wallet_addEthereumChain checks the parameter as
 * MetaMask does, adds the chain and switches to it), whether the site is connected, and signs personal_sign.
 * Development and test code only: nothing in a production build imports it.
 */
import { getAddress, hexToBytes, isAddress, isAddressEqual, isHex, toHex } from 'viem';
import type { Address, Hex, PrivateKeyAccount } from 'viem';
import { postJsonRpc } from './jsonRpc';

/** EIP-1193 ProviderRpcError fields. */
export interface RpcErrorShape {
  code: number;
  message: string;
  data?: unknown;
}

/** An EIP-1193 error as a provider throws it: the app reads `code` and `message`. */
export class WalletRpcError extends Error {
  override name = 'WalletRpcError';
  readonly code: number;
  readonly data: unknown;
  constructor(readonly shape: RpcErrorShape) {
    super(shape.message);
    this.code = shape.code;
    this.data = shape.data;
  }
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

/** EIP-3085 wallet_addEthereumChain parameter, as the wallet received it. */
export interface AddEthereumChainParameter {
  chainId: string;
  chainName: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  rpcUrls: string[];
  blockExplorerUrls?: string[];
  iconUrls?: string[];
}

export interface SignedMessage {
  address: Address;
  /** The text the member was shown (a 0x message decoded as UTF-8). */
  message: string;
  signature: Hex;
}

export interface SimulatedWalletOptions {
  /** The wallet's accounts; the first is selected. */
  accounts: readonly PrivateKeyAccount[];
  /** The chain the wallet is on. */
  chainId: number;
  /** Chains the wallet knows besides chainId. */
  knownChainIds?: readonly number[];
  /** Whether the site is already connected (eth_accounts answers without eth_requestAccounts). */
  connected?: boolean;
  /** Delivers a provider event (accountsChanged, chainChanged, disconnect) to the site; awaited. */
  emit: (event: string, payload: unknown) => unknown;
  /**
   * A node of the chain the wallet is on: reads (eth_call, blocks, receipts, ...) go to it, and eth_sendTransaction
   * is signed with the selected account and sent there, as a wallet with its own node does. Without it those
   * methods answer 4200.
   */
  rpcUrl?: string;
}

/** What a wallet passes to its node as it is (reads and the fee market). */
const forwardedMethods = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getTransactionCount',
  'eth_getCode',
]);

/**
 * The wallet's state and its answers.
 *
 * @example
 * const wallet = new SimulatedWallet({ accounts: [privateKeyToAccount(key)], chainId: 1, emit });
 * await wallet.answer({ method: 'eth_requestAccounts' }); // [address]
 */
export class SimulatedWallet {
  readonly accounts: readonly PrivateKeyAccount[];
  /** Every wallet_addEthereumChain parameter the wallet accepted. */
  readonly addedChains: AddEthereumChainParameter[] = [];
  /** Every personal_sign the wallet signed. */
  readonly signedMessages: SignedMessage[] = [];

  private currentChainId: number;
  private readonly knownChains: Set<number>;
  private selectedIndex = 0;
  private connected: boolean;
  private readonly emit: SimulatedWalletOptions['emit'];
  private readonly rpcUrl: string | undefined;

  constructor(options: SimulatedWalletOptions) {
    if (options.accounts.length === 0) throw new Error('a wallet needs at least one account');
    this.accounts = options.accounts;
    this.currentChainId = options.chainId;
    this.knownChains = new Set([options.chainId, ...(options.knownChainIds ?? [])]);
    this.connected = options.connected ?? false;
    this.emit = options.emit;
    this.rpcUrl = options.rpcUrl;
  }

  /** The selected account's address. */
  get address(): Address {
    return this.selected.address;
  }

  /** The chain the wallet is on. */
  get chainId(): number {
    return this.currentChainId;
  }

  /** Every chain the wallet knows, the current one included. */
  get knownChainIds(): number[] {
    return [...this.knownChains];
  }

  /** Whether the site may see the accounts (eth_requestAccounts was approved). */
  get isConnected(): boolean {
    return this.connected;
  }

  knowsChain(chainId: number): boolean {
    return this.knownChains.has(chainId);
  }

  /**
   * Answers one request.
   *
   * @returns the result
   * @throws WalletRpcError with the code a wallet gives
   */
  async answer({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
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
      case 'eth_sendTransaction':
        if (this.rpcUrl) return this.sendTransaction(params);
        throw new WalletRpcError(rpcErrors.unsupportedMethod(method));
      default:
        if (this.rpcUrl && forwardedMethods.has(method)) return this.forward(method, params);
        throw new WalletRpcError(rpcErrors.unsupportedMethod(method));
    }
  }

  /** The member picks another account in the wallet: a connected site gets accountsChanged with it. */
  async switchAccount(account: number | Address): Promise<void> {
    const index = typeof account === 'number' ? account : this.accounts.findIndex((candidate) => isAddressEqual(candidate.address, account));
    if (index < 0 || index >= this.accounts.length) throw new Error(`the wallet has no account ${String(account)}`);
    this.selectedIndex = index;
    if (this.connected) await this.emit('accountsChanged', [this.address]);
  }

  /** The member switches the network in the wallet itself; the chain becomes known and chainChanged is emitted. */
  async switchChain(chainId: number): Promise<void> {
    this.knownChains.add(chainId);
    await this.moveToChain(chainId);
  }

  /** The wallet loses its connection: the site is forgotten and 'disconnect' is emitted. */
  async disconnect(error: RpcErrorShape = rpcErrors.disconnected()): Promise<void> {
    this.connected = false;
    await this.emit('disconnect', error);
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

  private async switchEthereumChain(params: unknown): Promise<null> {
    const chainIdHex = readChainIdParam(params);
    const chainId = Number.parseInt(chainIdHex, 16);
    if (!this.knownChains.has(chainId)) throw new WalletRpcError(rpcErrors.unrecognizedChain(chainIdHex));
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

  /** A read the node answers; the node's error comes back with its own code and words. */
  private async forward(method: string, params: unknown): Promise<unknown> {
    const { result, error } = await postJsonRpc(this.rpcUrl ?? '', method, params);
    if (error) throw new WalletRpcError({ code: error.code, message: error.message, data: error.data });
    return result;
  }

  /**
   * eth_sendTransaction [{ from, to, data, value? }]: signed by the selected account (viem fills nonce, gas and fees
   * from the node) and sent; the hash. A transaction the node refuses (estimation reverts: the token's "transfer
   * amount exceeds balance", or no gas money) is -32603 with the node's words, as MetaMask answers.
   */
  private async sendTransaction(params: unknown): Promise<Hex> {
    const first: unknown = Array.isArray(params) ? params[0] : undefined;
    const request = typeof first === 'object' && first !== null ? (first as { from?: unknown; to?: unknown; data?: unknown; value?: unknown }) : {};
    if (typeof request.from !== 'string' || !this.connected || !isAddressEqual(getAddress(request.from), this.address)) {
      throw new WalletRpcError(rpcErrors.unauthorized());
    }
    if (typeof request.to !== 'string' || !isAddress(request.to, { strict: false })) throw new WalletRpcError(rpcErrors.invalidParams('to'));
    const { createWalletClient, http } = await import('viem');
    const client = createWalletClient({ account: this.selected, transport: http(this.rpcUrl) });
    try {
      return await client.sendTransaction({
        to: getAddress(request.to),
        data: typeof request.data === 'string' && isHex(request.data) ? request.data : undefined,
        value: typeof request.value === 'string' ? BigInt(request.value) : undefined,
        chain: { id: this.currentChainId, name: 'wallet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [this.rpcUrl ?? ''] } } },
      });
    } catch (error) {
      const message = error instanceof Error ? ((error as { details?: string }).details ?? error.message) : String(error);
      throw new WalletRpcError({ code: -32603, message });
    }
  }

  /** personal_sign [message, address]: a 0x message is decoded to text first, as wallets show it. */
  private async personalSign(params: unknown): Promise<Hex> {
    if (!Array.isArray(params) || params.length < 2) throw new WalletRpcError(rpcErrors.invalidParams('personal_sign expects [message, address]'));
    const [rawMessage, rawAddress] = params as unknown[];
    if (typeof rawMessage !== 'string') throw new WalletRpcError(rpcErrors.invalidParams('the message must be a string'));
    if (typeof rawAddress !== 'string' || !isAddress(rawAddress, { strict: false })) {
      throw new WalletRpcError(rpcErrors.invalidParams('the second parameter must be an address'));
    }
    if (!this.connected || !isAddressEqual(getAddress(rawAddress), this.address)) throw new WalletRpcError(rpcErrors.unauthorized());
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
    throw new WalletRpcError(rpcErrors.invalidParams(`expected [{ chainId: hex string without leading zeros }], got ${JSON.stringify(params)}`));
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
  // MetaMask takes http for a node on this machine (the development chain's).
  const isRpcUrlList = (value: unknown): value is string[] =>
    Array.isArray(value) && value.every((url) => typeof url === 'string' && /^(https:\/\/|http:\/\/(127\.0\.0\.1|localhost)[:/])/.test(url));
  if (!isRpcUrlList(rpcUrls) || rpcUrls.length === 0) problems.push('rpcUrls (https)');
  if (blockExplorerUrls !== undefined && !isUrlList(blockExplorerUrls)) problems.push('blockExplorerUrls (https)');
  if (iconUrls !== undefined && !Array.isArray(iconUrls)) problems.push('iconUrls');
  if (problems.length > 0) throw new WalletRpcError(rpcErrors.invalidParams(`wallet_addEthereumChain: ${problems.join(', ')}`));
  return first as unknown as AddEthereumChainParameter;
}
