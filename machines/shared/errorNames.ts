/**
 * The error names machines keep in context, in one list (docs/architecture.md, "Errors"). src/wallet/errors.ts defines a class
 * with each wallet name, src/app/errorKey.ts turns each name into its locale key (`wallet.errors.{name}`,
 * `auth.errors.{name}`), and the locale tests check every name has a text in every language.
 */

/** Wallet failures: each is a class in src/wallet/errors.ts, in this order. */
export const WalletErrorNames = {
  providerNotFound: 'ProviderNotFoundError',
  noAccounts: 'NoAccountsError',
  userRejected: 'UserRejectedError',
  requestPending: 'RequestPendingError',
  unrecognizedChain: 'UnrecognizedChainError',
  timeout: 'WalletTimeoutError',
  chainParamsMissing: 'ChainParamsMissingError',
  disconnected: 'WalletDisconnectedError',
  unsupportedMethod: 'UnsupportedMethodError',
  unknown: 'UnknownWalletError',
} as const;

export type WalletErrorName = (typeof WalletErrorNames)[keyof typeof WalletErrorNames];

/**
 * The wallet's own error codes the app tells apart (EIP-1193, EIP-1474; docs/architecture.md, "Errors"). src/wallet/errors.ts
 * maps raw codes to its classes with these, and the diagrams name them on the paths they lead to.
 */
export const WalletErrorCodes = {
  /** EIP-1193: the member refused the request in the wallet. */
  userRejected: 4001,
  /** EIP-1474: a request of this kind is already waiting in the wallet. */
  requestPending: -32002,
  /** EIP-1193 (wallet_switchEthereumChain): the wallet does not know the chain. */
  unrecognizedChain: 4902,
  /** EIP-1193: the account or method is not authorised for this site. */
  unauthorized: 4100,
  /** EIP-1193: the wallet is disconnected from every chain. */
  disconnected: 4900,
  /** EIP-1193: the wallet is disconnected from the chain asked for. */
  chainDisconnected: 4901,
  /** EIP-1193: the wallet does not support the method (imToken before 2.10 for wallet_switchEthereumChain). */
  unsupportedMethod: 4200,
  /** JSON-RPC: the method does not exist (older in-app browsers for wallet_switchEthereumChain). */
  methodNotFound: -32601,
  /** JSON-RPC: internal error; wallets use it for anything, an unknown chain in the member's language included. */
  internalError: -32603,
  /** A provider disconnect with 1013 (WebSocket "try again later"): the wallet is reconnecting by itself. */
  reconnecting: 1013,
} as const;

export type WalletErrorCode = (typeof WalletErrorCodes)[keyof typeof WalletErrorCodes];

/** The error name the app gives each wallet code (a reconnect is no error). */
export const walletErrorNameOfCode: Readonly<Record<Exclude<WalletErrorCode, 1013 | -32603 | 4100>, WalletErrorName>> = {
  [WalletErrorCodes.userRejected]: WalletErrorNames.userRejected,
  [WalletErrorCodes.requestPending]: WalletErrorNames.requestPending,
  [WalletErrorCodes.unrecognizedChain]: WalletErrorNames.unrecognizedChain,
  [WalletErrorCodes.disconnected]: WalletErrorNames.disconnected,
  [WalletErrorCodes.chainDisconnected]: WalletErrorNames.disconnected,
  [WalletErrorCodes.unsupportedMethod]: WalletErrorNames.unsupportedMethod,
  [WalletErrorCodes.methodNotFound]: WalletErrorNames.unsupportedMethod,
};

/** Every wallet error name, in the order of WalletErrorNames. */
export const walletErrorNames: readonly WalletErrorName[] = Object.values(WalletErrorNames);

/** Sign-in and binding failures that are not the wallet's nor the server's: the auth machine names them itself. */
export const AuthErrorNames = {
  /** The wallet moved to another account while signing in. */
  walletChanged: 'WalletChangedError',
  /** The invite code is not 4-16 letters or digits; nothing was sent. */
  inviteCodeInvalid: 'InviteCodeInvalidError',
} as const;

export type AuthErrorName = (typeof AuthErrorNames)[keyof typeof AuthErrorNames];

/** Every auth error name. */
export const authErrorNames: readonly AuthErrorName[] = Object.values(AuthErrorNames);

/** An API envelope failure: kept as { name: ApiErrorName, code } and shown as `Common.{code}`. */
export const ApiErrorName = 'ApiError';
