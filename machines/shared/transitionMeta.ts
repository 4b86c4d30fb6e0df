/**
 * What a transition tells the reader of docs/machines beyond its event and guard: the wallet codes that lead there
 * and the decision record behind it. Machines declare it as `transitionMeta` in setup; scripts/machineGraph renders
 * it. It never reaches the UI.
 */
import type { WalletErrorCode } from './errorNames';

/** The decision records (docs/decisions/<name>.md) that machines point to. */
export const Decisions = {
  /** A failed chain switch keeps the wallet connected; -32002 never resends. */
  walletSwitchFailureKeepsConnection: '0003-wallet-switch-failure-keeps-connection',
  /** A stored session keeps the address its token belongs to. */
  sessionAddress: '0008-session-address',
  /** Every retry of a confirmed withdrawal sends its request id; only 3001/3002/3003 drop it. */
  withdrawalRequestId: '0011-withdrawal-request-id',
} as const;

export type Decision = (typeof Decisions)[keyof typeof Decisions];

export interface TransitionMeta {
  /** The wallet answers (error codes) that take this transition. */
  walletCodes?: readonly WalletErrorCode[];
  /** The server's envelope codes (api-schema ApiCode) that take this transition. */
  apiCodes?: readonly number[];
  /** The decision record that decides this path. */
  decision?: Decision;
}
