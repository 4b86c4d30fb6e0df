/**
 * The error names machines keep in context, in one list (STYLE.md, "Errors"). src/wallet/errors.ts defines a class
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
  unknown: 'UnknownWalletError',
} as const;

export type WalletErrorName = (typeof WalletErrorNames)[keyof typeof WalletErrorNames];

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
