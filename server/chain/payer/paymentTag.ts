/**
 * Each payment names its withdrawal on chain (docs/decisions/0033-the-chain-is-the-payers-journal.md): one 32-byte
 * word after the token transfer's arguments, eight bytes of "MDAPPWID" and the withdrawal's id in the other 24.
 * ERC-20 contracts read only the arguments they declare and ignore the rest of the calldata, so the member is paid
 * as without it; a database restored from a backup, or one a failover lost writes of, finds the payment again by it.
 */
import { decodeFunctionData, encodeFunctionData, erc20Abi, isHex, toHex, type Address, type Hex } from 'viem';

/** "MDAPPWID" in ASCII. */
const TAG_MAGIC = '4d44415050574944';
/** The transfer's selector and its two 32-byte arguments, in hex digits after 0x. */
const TRANSFER_DIGITS = 8 + 64 * 2;
const MAX_ID = 2n ** 192n - 1n;

/**
 * The calldata of a payment: transfer(to, amount) and the tag naming the withdrawal.
 *
 * @param fields - the member, token units and the withdrawal's id
 * @returns the calldata
 * @example
 * const data = taggedTransferData({ to, tokenAmount: 19_000_000n, withdrawalId: 42n });
 */
export function taggedTransferData(fields: { to: Address; tokenAmount: bigint; withdrawalId: bigint }): Hex {
  if (fields.withdrawalId < 0n || fields.withdrawalId > MAX_ID) throw new RangeError('withdrawal id out of the tag range');
  const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [fields.to, fields.tokenAmount] });
  return `${transfer}${TAG_MAGIC}${toHex(fields.withdrawalId, { size: 24 }).slice(2)}`;
}

/** What a transaction's calldata says: a token transfer (with the withdrawal it names, if tagged), or not one. */
export type ReadTransfer = { to: Address; tokenAmount: bigint; withdrawalId: bigint | null } | null;

/**
 * Reads a transaction's calldata as a payment, if it is a token transfer.
 *
 * @param input - the transaction's calldata
 * @returns the transfer's member and amount and the tagged withdrawal (null when untagged), or null
 * @example
 * const read = readTransferData(transaction.input);
 */
export function readTransferData(input: Hex): ReadTransfer {
  if (!isHex(input) || input.length < 2 + TRANSFER_DIGITS) return null;
  let args: readonly unknown[] | undefined;
  try {
    const decoded = decodeFunctionData({ abi: erc20Abi, data: input.slice(0, 2 + TRANSFER_DIGITS) as Hex });
    if (decoded.functionName !== 'transfer') return null;
    args = decoded.args;
  } catch {
    return null;
  }
  const [to, tokenAmount] = args as readonly [Address, bigint];
  const rest = input.slice(2 + TRANSFER_DIGITS).toLowerCase();
  const withdrawalId = rest.length === 64 && rest.startsWith(TAG_MAGIC.toLowerCase()) ? BigInt(`0x${rest.slice(16)}`) : null;
  return { to, tokenAmount, withdrawalId };
}
