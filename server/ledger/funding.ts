/**
 * A funding of one of the accounts finance funds (server/ledger/accounts.ts FUNDED_ACCOUNTS) as the engine's request:
 * the amount from its asset's issuance, a `funding` transfer between system accounts. The operators' call
 * (routes/opsPolicy.ts), the development seed, the tests' and the bench's set-up all fund through it.
 */
import { FUNDED_ACCOUNTS, systemAccountId, type FundedAccount } from './accounts';
import type { LedgerRequest } from './engine';

/**
 * The request that funds `account` with `amount`.
 *
 * @param account - the funded account, by its contract name
 * @param amount - minor units, > 0
 * @param now - when
 * @returns the ledger request (no at-most-once key: the caller's act keeps it)
 * @example
 * await postRequests(tx, [fundingRequest('sharePools', 1_000_000n, now)]);
 */
export function fundingRequest(account: FundedAccount, amount: bigint, now: Date): LedgerRequest {
  const { asset, kind } = FUNDED_ACCOUNTS[account];
  return { now, legs: [{ asset, type: 'funding', from: { system: systemAccountId(asset, 'issuance') }, to: { system: systemAccountId(asset, kind) }, amount }] };
}
