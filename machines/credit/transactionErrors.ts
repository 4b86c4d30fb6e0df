/**
 * The wallet errors only a transaction meets (the top-up's transfer), apart from machines/shared/errorNames.ts so
 * that the sign-in page does not carry them: src/wallet/errors.ts has a class with each name, and the top-up sheet
 * shows `credit:topUp.errors.{name}` (the locale tests check every name has a text in every language).
 */
export const TransactionErrorNames = {
  /** Not enough of the token, or of the chain's coin for the fee. */
  insufficientFunds: 'InsufficientFundsError',
  /** The wallet is on another chain than the app's. */
  wrongChain: 'WrongChainError',
  /** EIP-1193 4100 to the transaction: the wallet has not authorised this site for the account. */
  unauthorized: 'UnauthorizedError',
} as const;

export type TransactionErrorName = (typeof TransactionErrorNames)[keyof typeof TransactionErrorNames];

/** Every transaction error name. */
export const transactionErrorNames: readonly TransactionErrorName[] = Object.values(TransactionErrorNames);
