/**
 * The error names the wallet machine reasons about. src/wallet/errors.ts defines a class with each of these
 * names (a unit test ties the two), and locales hold `wallet.errors.{name}` for each.
 */
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
