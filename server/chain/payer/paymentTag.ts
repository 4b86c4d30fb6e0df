/**
 * Each payment names its withdrawal on chain (docs/decisions/0033-the-chain-is-the-payers-journal.md): one 32-byte
 * word after the token transfer's arguments: eight bytes of "MDAPPWID", the withdrawal's id in eight, and in sixteen
 * a fingerprint of the id and the withdrawal's creation time. ERC-20 contracts read only the arguments they declare
 * and ignore the rest of the calldata, so the member is paid as without it; a database restored from a backup, or one
 * a failover lost writes of, finds the payment again by it. The fingerprint tells the withdrawal the database lost
 * from a new one that got the same id after the restore (identities start again from the backup's).
 */
import { decodeFunctionData, encodeFunctionData, erc20Abi, isHex, keccak256, stringToHex, toHex, type Address, type Hex } from 'viem';

/** "MDAPPWID" in ASCII. */
const TAG_MAGIC = '4d44415050574944';
/** The transfer's selector and its two 32-byte arguments, in hex digits after 0x. */
const TRANSFER_DIGITS = 8 + 64 * 2;
const MAX_ID = 2n ** 64n - 1n;

/**
 * The withdrawal's fingerprint: 16 bytes of keccak256 of its id and creation time (milliseconds, ISO 8601).
 *
 * @param withdrawal - its id and creation time
 * @returns 32 hex digits
 * @example
 * withdrawalFingerprint({ id: 7n, createdAt: new Date('2026-12-01T00:00:00Z') });
 */
export function withdrawalFingerprint(withdrawal: { id: bigint; createdAt: Date }): string {
  return keccak256(stringToHex(`${withdrawal.id}:${withdrawal.createdAt.toISOString()}`)).slice(2, 34);
}

/**
 * The calldata of a payment: transfer(to, amount) and the tag naming the withdrawal.
 *
 * @param fields - the member, token units and the withdrawal's id
 * @returns the calldata
 * @example
 * const data = taggedTransferData({ to, tokenAmount: 19_000_000n, withdrawalId: 42n, createdAt });
 */
export function taggedTransferData(fields: { to: Address; tokenAmount: bigint; withdrawalId: bigint; createdAt: Date }): Hex {
  if (fields.withdrawalId < 0n || fields.withdrawalId > MAX_ID) throw new RangeError('withdrawal id out of the tag range');
  const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [fields.to, fields.tokenAmount] });
  const fingerprint = withdrawalFingerprint({ id: fields.withdrawalId, createdAt: fields.createdAt });
  return `${transfer}${TAG_MAGIC}${toHex(fields.withdrawalId, { size: 8 }).slice(2)}${fingerprint}`;
}

/** What a transaction's calldata says: a token transfer (with the withdrawal it names, if tagged), or not one. */
export type ReadTransfer = { to: Address; tokenAmount: bigint; withdrawalId: bigint | null; fingerprint: string | null } | null;

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
  const tagged = rest.length === 64 && rest.startsWith(TAG_MAGIC.toLowerCase());
  return { to, tokenAmount, withdrawalId: tagged ? BigInt(`0x${rest.slice(16, 32)}`) : null, fingerprint: tagged ? rest.slice(32) : null };
}
