/**
 * What the payer decides money from (never from absence). A receipt pays a member only with the token's
 * Transfer log for the amount; a payment's nonce is taken by another transaction only when the block that took it is
 * read and its transaction there is not one of the payment's own. Every read here names a block at or below the
 * depth, so any node that has the block answers the same, and one that lacks it answers nothing decisive.
 */
import { erc20Abi, isAddressEqual, parseEventLogs, type Address, type Hex, type PublicClient, type TransactionReceipt } from 'viem';
import { blockOrNull } from '../chainReads';

/**
 * Whether a receipt pays the member: status 1 and the token's Transfer log from the hot wallet to the member for the
 * amount (a token that returns false instead of reverting moves nothing and logs nothing).
 *
 * @param receipt - the payment's receipt
 * @param expected - the token, the hot wallet, the member and the amount in token units
 * @returns true when the member was paid
 * @example
 * const paid = paysMember(receipt, { token, from: account.address, to: member, amount });
 */
export function paysMember(receipt: TransactionReceipt, expected: { token: Address; from: Address; to: Address; amount: bigint }): boolean {
  if (receipt.status !== 'success') return false;
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).some(
    (log) => isAddressEqual(log.address, expected.token) && isAddressEqual(log.args.from, expected.from) && isAddressEqual(log.args.to, expected.to) && log.args.value === expected.amount,
  );
}

/**
 * The transaction that took an account's nonce, read from the first block whose state has the account's count past
 * it (a search back from `atBlock` with eth_getTransactionCount at block numbers), then that block's transactions.
 * Null when it cannot be shown: the count at `atBlock` is not past the nonce, the node has not the block, or the block
 * holds no transaction of the account with that nonce (nodes that disagree). Any other failure throws (chainReads.ts).
 *
 * @param client - the chain's client
 * @param account - the hot wallet
 * @param nonce - the payment's nonce
 * @param atBlock - the block at depth (nothing above it is read)
 * @returns the hash of the transaction that took the nonce and its block, or null
 * @example
 * const taker = await nonceTaker(client, account.address, 7n, head - 3n);
 */
export async function nonceTaker(client: PublicClient, account: Address, nonce: bigint, atBlock: bigint): Promise<{ hash: Hex; blockNumber: bigint } | null> {
  const passed = async (blockNumber: bigint) => BigInt(await client.getTransactionCount({ address: account, blockNumber })) > nonce;
  if (!(await passed(atBlock))) return null;
  // Back in doubling steps to a block not yet past it (usually the taker is recent), then halving between the two.
  let high = atBlock;
  let step = 1n;
  let low = high > step ? high - step : 0n;
  while (await passed(low)) {
    // Past it in the first block: no transaction took it that a block shows.
    if (low === 0n) return null;
    high = low;
    step *= 2n;
    low = high > step ? high - step : 0n;
  }
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (await passed(middle)) high = middle;
    else low = middle;
  }
  const block = await blockOrNull(client, high, true);
  if (!block) return null;
  const taker = block.transactions.find((transaction) => isAddressEqual(transaction.from, account) && BigInt(transaction.nonce) === nonce);
  return taker ? { hash: taker.hash, blockNumber: high } : null;
}
