import { UnknownRpcError } from 'viem';
import { WalletErrorCodes } from '../../machines/shared/errorNames';
import type { WalletErrorName } from '../../machines/shared/errorNames';
import type { TransactionErrorName } from '../../machines/credit/transactionErrors';

/**
 * Wallet errors, in the viem style (viem src/errors/base.ts): each class has a fixed `name`, the protocol `code`
 * where there is one, a `shortMessage`, and optional `details` (the wallet's own words). Machines store only
 * `{ name, code }`; the UI shows `wallet.errors.{name}` (docs/architecture.md, "Errors").
 */

/** Every wallet error class name, from the one list the machines use; each has a text under `wallet.errors`. */
export { walletErrorNames } from '../../machines/shared/errorNames';
export type { WalletErrorName } from '../../machines/shared/errorNames';

export interface WalletErrorParameters {
  code?: number | undefined;
  details?: string | undefined;
  cause?: unknown;
}

/** The base of every wallet error. */
export abstract class WalletError extends Error {
  abstract override readonly name: WalletErrorName | TransactionErrorName;
  readonly code: number | undefined;
  readonly shortMessage: string;
  readonly details: string | undefined;

  constructor(shortMessage: string, { code, details, cause }: WalletErrorParameters = {}) {
    super(details ? `${shortMessage}\n\nDetails: ${details}` : shortMessage, cause === undefined ? undefined : { cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = details;
  }
}

/** No wallet in the page. The message is the spec's, word for word (spec section 5). */
export class ProviderNotFoundError extends WalletError {
  override readonly name = 'ProviderNotFoundError';
  constructor() {
    super('Phantom not installed');
  }
}

/** Eager connect found no account (spec section 8: swallowed and logged at debug level). */
export class NoAccountsError extends WalletError {
  override readonly name = 'NoAccountsError';
  constructor() {
    super('No accounts returned');
  }
}

/** EIP-1193 4001: the member said no in the wallet. */
export class UserRejectedError extends WalletError {
  static readonly code = WalletErrorCodes.userRejected;
  override readonly name = 'UserRejectedError';
  constructor({ details, cause }: Omit<WalletErrorParameters, 'code'> = {}) {
    super('The request was rejected in the wallet.', { code: UserRejectedError.code, details, cause });
  }
}

/** EIP-1474 -32002: the wallet already shows a prompt of this kind (MetaMask: "Already processing eth_requestAccounts"). */
export class RequestPendingError extends WalletError {
  static readonly code = WalletErrorCodes.requestPending;
  override readonly name = 'RequestPendingError';
  constructor({ details, cause }: Omit<WalletErrorParameters, 'code'> = {}) {
    super('A request is already waiting in the wallet.', { code: RequestPendingError.code, details, cause });
  }
}

/** EIP-1193 4902: the wallet does not know the chain; the app may add it with wallet_addEthereumChain. */
export class UnrecognizedChainError extends WalletError {
  static readonly code = WalletErrorCodes.unrecognizedChain;
  override readonly name = 'UnrecognizedChainError';
  constructor({ details, cause }: Omit<WalletErrorParameters, 'code'> = {}) {
    super('The wallet does not recognise the chain.', { code: UnrecognizedChainError.code, details, cause });
  }
}

/** The wallet did not answer a request in time (it may never answer: closed prompt, app in background). */
export class WalletTimeoutError extends WalletError {
  override readonly name = 'WalletTimeoutError';
  constructor({ method, timeoutMs }: { method: string; timeoutMs: number }) {
    super('The wallet did not answer in time.', { details: `${method} got no answer within ${timeoutMs} ms.` });
  }
}

/** The wallet does not know the chain and the app config has no chain parameters to add it. */
export class ChainParamsMissingError extends WalletError {
  override readonly name = 'ChainParamsMissingError';
  constructor({ chainId }: { chainId: number }) {
    super('The chain is unknown to the wallet and there are no parameters to add it.', { details: `Chain id: ${chainId}.` });
  }
}

/**
 * EIP-1193 4900 (disconnected from all chains) or 4901 (from the chain asked for): from a request, or from the
 * provider's 'disconnect' event.
 */
export class WalletDisconnectedError extends WalletError {
  static readonly code = WalletErrorCodes.disconnected;
  override readonly name = 'WalletDisconnectedError';
  constructor({ code = WalletDisconnectedError.code, details, cause }: WalletErrorParameters = {}) {
    super('The wallet disconnected.', { code, details, cause });
  }
}

/**
 * EIP-1193 4200 or JSON-RPC -32601: the wallet does not support the method. imToken before 2.10 answers so to
 * wallet_switchEthereumChain (src/wallet/walletQuirks.ts); the wallet machine then asks the member to switch the
 * network by hand.
 */
export class UnsupportedMethodError extends WalletError {
  static readonly code = WalletErrorCodes.unsupportedMethod;
  override readonly name = 'UnsupportedMethodError';
  constructor({ code = UnsupportedMethodError.code, details, cause }: WalletErrorParameters = {}) {
    super('The wallet does not support this request.', { code, details, cause });
  }
}

/**
 * EIP-1193 4100 to a transaction: the wallet has not authorised this site for the account. The top-up's transfers
 * (src/wallet/tokenTransfers.ts) make it from 4100; elsewhere 4100 stays an UnknownWalletError.
 */
export class UnauthorizedError extends WalletError {
  static readonly code = WalletErrorCodes.unauthorized;
  override readonly name = 'UnauthorizedError';
  constructor({ code = UnauthorizedError.code, details, cause }: WalletErrorParameters = {}) {
    super('The wallet has not authorised this site.', { code, details, cause });
  }
}

/** A transaction the wallet cannot pay for: not enough of the token, or of the chain's coin for the fee. */
export class InsufficientFundsError extends WalletError {
  override readonly name = 'InsufficientFundsError';
  constructor({ details, cause }: WalletErrorParameters = {}) {
    super('Not enough funds for this transaction.', { details, cause });
  }
}

/** A transaction asked for while the wallet is on another chain than the app's. */
export class WrongChainError extends WalletError {
  override readonly name = 'WrongChainError';
  constructor({ details, cause }: WalletErrorParameters = {}) {
    super("The wallet is on another network than the app's.", { details, cause });
  }
}

/** Any other wallet failure; keeps the wallet's code and message. */
export class UnknownWalletError extends WalletError {
  override readonly name = 'UnknownWalletError';
  constructor({ code, message, cause }: { code?: number | undefined; message?: string | undefined; cause?: unknown } = {}) {
    super(message || 'An unknown wallet error occurred.', { code, cause });
  }
}

/**
 * Maps anything a wallet request threw to one of the wallet error classes, with one switch on the code. It walks
 * the cause chain, since viem wraps the wallet's error (viem src/utils/buildRequest.ts), and unwraps 4902 where
 * wallets hide it: MetaMask Mobile sends -32603 with data.originalError.code 4902
 * (https://github.com/MetaMask/metamask-mobile/issues/2944#issuecomment-976988719, as wagmi's injected connector
 * unwraps it), and several in-app browsers only say "Unrecognized chain ID" or "unknown chain" in the message.
 * The wording is a hint only: wallets translate it (Trust Wallet in Chinese), so the wallet machine also treats a
 * -32603 or uncoded answer to the switch it asked for as a possibly unknown chain. The quirks this handles, each
 * with its source, are the table in src/wallet/walletQuirks.ts.
 *
 * @param error - What a wallet request threw: a viem error, the provider's raw `{ code, message, data }`, or anything.
 * @returns The matching WalletError (the same object when it already is one).
 * @example
 * toWalletError({ code: 4001, message: 'User rejected the request.' }) // UserRejectedError
 */
export function toWalletError(error: unknown): WalletError {
  if (error instanceof WalletError) return error;
  const links = causeChain(error);
  const message = providerMessage(links);
  const rawCode = providerCode(links);
  // A rejection is certain; any other answer that names an unknown chain is the wallet's 4902.
  const code = rawCode !== UserRejectedError.code && links.some(namesUnknownChain) ? UnrecognizedChainError.code : rawCode;
  switch (code) {
    case UserRejectedError.code:
      return new UserRejectedError({ details: message, cause: error });
    case RequestPendingError.code:
      return new RequestPendingError({ details: message, cause: error });
    case UnrecognizedChainError.code:
      return new UnrecognizedChainError({ details: message, cause: error });
    case WalletDisconnectedError.code:
    case WalletErrorCodes.chainDisconnected:
      return new WalletDisconnectedError({ code, details: message, cause: error });
    case UnsupportedMethodError.code:
    case WalletErrorCodes.methodNotFound:
      return new UnsupportedMethodError({ code, details: message, cause: error });
    default:
      // Wallets and nodes say "insufficient funds" (gas) or the token's "transfer amount exceeds balance" in words.
      if (message && /insufficient funds|exceeds balance/i.test(message)) return new InsufficientFundsError({ details: message, cause: error });
      return new UnknownWalletError({ code, message, cause: error });
  }
}

/** The error, then its causes, outermost first (viem BaseError.walk follows `.cause` the same way). */
function causeChain(error: unknown): unknown[] {
  const links: unknown[] = [];
  let link: unknown = error;
  while (link !== undefined && link !== null && !links.includes(link) && links.length < 16) {
    links.push(link);
    link = typeof link === 'object' && 'cause' in link ? link.cause : undefined;
  }
  return links;
}

function readNumber(value: unknown, key: string): number | undefined {
  if (typeof value !== 'object' || value === null || !(key in value)) return undefined;
  const field: unknown = Reflect.get(value, key);
  return typeof field === 'number' && Number.isFinite(field) ? field : undefined;
}

function readObject(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && key in value ? Reflect.get(value, key) : undefined;
}

function readMessage(link: unknown): string | undefined {
  if (typeof link === 'string') return link || undefined;
  const message = readObject(link, 'message');
  return typeof message === 'string' && message ? message : undefined;
}

/** The wallet's code: a nested data.originalError.code first, else the innermost code (the raw provider error). */
function providerCode(links: unknown[]): number | undefined {
  for (const link of links) {
    const nested = readNumber(readObject(readObject(link, 'data'), 'originalError'), 'code');
    if (nested !== undefined) return nested;
  }
  for (const link of [...links].reverse()) {
    // viem's UnknownRpcError carries -1 of its own; the wallet's code, if any, is deeper.
    if (link instanceof UnknownRpcError) continue;
    const code = readNumber(link, 'code');
    if (code !== undefined) return code;
  }
  return undefined;
}

/** The wallet's own words: the innermost message (viem adds its own text around it on the outer links). */
function providerMessage(links: unknown[]): string | undefined {
  for (const link of [...links].reverse()) {
    const message = readMessage(link);
    if (message) return message;
  }
  return undefined;
}

const unknownChainPatterns = [/unrecogni[sz]ed chain/i, /unknown chain/i, /\bchain\b[^.]*\bnot (?:been )?added/i];

function namesUnknownChain(link: unknown): boolean {
  const message = readMessage(link);
  return message !== undefined && unknownChainPatterns.some((pattern) => pattern.test(message));
}
