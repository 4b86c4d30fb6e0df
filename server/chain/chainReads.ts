/**
 * The chain reads the payer, the top-up watcher, the topUp call and reconcile share (docs/API.md, "Credit on chain"), each
 * with one rule for absence: only the node's own "not found" is null; any other failure (a timeout, a 5xx, a rate
 * limit) throws, so a caller's round fails instead of reading a node that did not answer as a chain without the thing.
 * An answer of absence is still only what one node knew: callers decide nothing final from it alone.
 * Also the one place that converts between the token's units and the ledger's (6 decimals, rounded down).
 */
import { BlockNotFoundError, TransactionReceiptNotFoundError, type Hex, type PublicClient, type TransactionReceipt } from 'viem';

/** Token amounts keep 6 decimals in the ledger (docs/API.md, "Envelope"); a token with fewer cannot be represented. */
export const LEDGER_DECIMALS = 6;

/**
 * A transaction's receipt, or null when the node says it has none.
 *
 * @param client - the chain's client
 * @param hash - the transaction
 * @returns the receipt or null
 * @throws whatever else the node answered
 * @example
 * const receipt = await receiptOrNull(chain.client, hash);
 */
export function receiptOrNull(client: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  return client.getTransactionReceipt({ hash }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  });
}

/**
 * The block at a height (with its transactions when asked), or null when the node has no block there (its chain is
 * shorter, or it lags: callers read null as doubt, never as a shorter chain).
 *
 * @param client - the chain's client
 * @param blockNumber - the height
 * @param includeTransactions - whether the block comes with its transactions
 * @returns the block or null
 * @throws whatever else the node answered
 * @example
 * const block = await blockOrNull(client, 120n, true);
 */
export function blockOrNull<includeTransactions extends boolean = false>(client: PublicClient, blockNumber: bigint, includeTransactions?: includeTransactions) {
  return client.getBlock({ blockNumber, includeTransactions }).catch((error: unknown) => {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  });
}

/**
 * The hash of the block at a height, or null when the node has no block there (its chain is shorter, or it lags).
 *
 * @param client - the chain's client
 * @param blockNumber - the height
 * @returns the hash or null
 * @throws whatever else the node answered
 * @example
 * if ((await blockHashAt(client, 120n)) !== kept.hash) rewind();
 */
export function blockHashAt(client: PublicClient, blockNumber: bigint): Promise<Hex | null> {
  return blockOrNull(client, blockNumber).then((block) => block?.hash ?? null);
}

/**
 * A token amount in the ledger's minor units: rounded down to 6 decimals.
 *
 * @param raw - the token's own units
 * @param decimals - the token's decimals (≥ 6)
 * @returns minor units
 * @example
 * toLedgerUnits(1_234_567_890_123_456_789n, 18); // 1_234_567n
 */
export function toLedgerUnits(raw: bigint, decimals: number): bigint {
  return raw / 10n ** BigInt(decimals - LEDGER_DECIMALS);
}

/**
 * The token's own units of a ledger amount (exact: the token has at least 6 decimals).
 *
 * @param minor - ledger minor units
 * @param decimals - the token's decimals (≥ 6)
 * @returns token units
 * @example
 * tokenUnitsOf(19_000_000n, 18); // 19n * 10n ** 18n
 */
export function tokenUnitsOf(minor: bigint, decimals: number): bigint {
  return minor * 10n ** BigInt(decimals - LEDGER_DECIMALS);
}
