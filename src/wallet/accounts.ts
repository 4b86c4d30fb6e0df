import { getAddress, isAddress } from 'viem';
import type { Address } from 'viem';

/**
 * Reads an account list as a wallet sends it (eth_accounts, eth_requestAccounts, accountsChanged): keeps the
 * valid addresses, checksummed (EIP-55), so the same account always looks the same whatever casing the wallet
 * used. Anything that is not a list reads as no accounts.
 *
 * @param raw - The wallet's answer.
 * @returns The checksummed addresses, in the wallet's order.
 * @example
 * normalizeAccounts(['0xd8da6bf26964af9d7eed9e03e53415d37aa96045']) // ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045']
 */
export function normalizeAccounts(raw: unknown): Address[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((item): item is string => typeof item === 'string' && isAddress(item, { strict: false })).map((item) => getAddress(item));
}
