/**
 * How the top-up watcher reads a block range (docs/API.md, "Credit on chain"; ADR 0018) so that no answer of a lagging or
 * disagreeing node can make it skip a top-up:
 *   1. every block header of the range, in one batched request, must be there and link to the one before (the first
 *      to the cursor): a block answered "not found", or a hash chain that breaks, is doubt, and the range is read again
 *      later (a load balancer's backends lag and disagree for seconds);
 *   2. a block whose header's logs bloom may hold a Transfer of the token to the treasury is asked for its logs by its
 *      hash (EIP-234): a node that lacks the block answers an error, never "no logs" as it may for a range past its
 *      head (go-ethereum#24078); a block whose bloom cannot hold one has none (a bloom has no false negatives). An
 *      empty answer for such a block is doubt all the same (a backend with the block may not have indexed its logs
 *      yet, with a current head): the block's receipts settle it (eth_getBlockReceipts, else each transaction's
 *      receipt), and a receipt no node answers leaves the range to be read again;
 *   3. each top-up's position among its transaction's logs: `logIndex` minus the index of the transaction's first
 *      log in the block. Its first top-up log is that first log only when proven (the block's log 0, or the log
 *      before it is another transaction's, read here too): the transaction may log other events, of other
 *      contracts, before it. Otherwise the transaction's receipt says: all its logs, in order, and it must be in the
 *      same block.
 */
import {
  getAddress,
  hexToBytes,
  isAddressEqual,
  keccak256,
  pad,
  parseEventLogs,
  toEventSelector,
  type Block,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import type { Chain } from './chain';
import { blockOrNull, receiptOrNull, toLedgerUnits } from './chainReads';
import type { TopUpLog } from './topUps';
import { transferEvent } from './transferEvent';

/** What a range read gives: its top-ups and the hash of its last block, or doubt (read it again later). */
export type RangeRead = { settled: true; logs: TopUpLog[]; lastHash: Hex } | { settled: false; reason: string };

const TRANSFER_TOPIC = toEventSelector(transferEvent);

/**
 * Whether a logs bloom (the header's 2048-bit filter, yellow paper 4.3.1) may hold an item: the three bits that
 * keccak256(item) names are all set.
 */
function bloomMayHold(bloom: Uint8Array, item: Hex): boolean {
  const hash = hexToBytes(keccak256(item));
  for (let i = 0; i < 6; i += 2) {
    const bit = (((hash[i] ?? 0) << 8) | (hash[i + 1] ?? 0)) & 2047;
    if (((bloom[255 - (bit >> 3)] ?? 0) & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}

/** The receipts of a block: eth_getBlockReceipts, else each transaction's; null when any is not there. */
async function blockReceipts(client: PublicClient, block: Block): Promise<TransactionReceipt[] | null> {
  const hash = block.hash ?? '0x';
  // A node without eth_getBlockReceipts (or that lacks the block) answers an error: each receipt is asked instead.
  const all = await client.getBlockReceipts({ blockHash: hash }).catch(() => undefined);
  if (all) return all;
  const full = await blockOrNull(client, block.number ?? 0n, true);
  if (full?.hash !== hash) return null;
  const receipts = await Promise.all(full.transactions.map((transaction) => receiptOrNull(client, transaction.hash)));
  return receipts.every((receipt) => receipt !== null) ? receipts : null;
}

/**
 * The token's Transfer logs to the treasury in a block, read from its receipts (a block whose logs were answered
 * empty while its bloom may hold one); null when its receipts are not all there, or not the block's.
 */
async function transfersInReceipts(client: PublicClient, block: Block, settings: Chain['settings']) {
  const receipts = await blockReceipts(client, block);
  if (!receipts || receipts.some((receipt) => receipt.blockHash !== block.hash)) return null;
  const logs = parseEventLogs({ abi: [transferEvent], logs: receipts.flatMap((receipt) => receipt.logs), strict: true });
  return logs.filter((log) => isAddressEqual(log.address, settings.token) && isAddressEqual(log.args.to, settings.treasury));
}

/**
 * Reads the top-ups of blocks `from`..`to`.
 *
 * @param chain - the connected chain
 * @param from - the first block
 * @param to - the last block (at depth)
 * @param parentHash - the hash `from` must name as its parent (the cursor's), if any
 * @returns the top-ups (amounts > 0 in ledger units) and the last block's hash, or doubt with its reason
 * @throws whatever a node answered that is neither a block nor its absence (the round fails, the cursor stays)
 * @example
 * const read = await readTopUps(chain, 101n, 120n, cursor.hash);
 */
export async function readTopUps(chain: Chain, from: bigint, to: bigint, parentHash?: string): Promise<RangeRead> {
  const { client, settings } = chain;
  const numbers = Array.from({ length: Number(to - from + 1n) }, (_, index) => from + BigInt(index));
  const headers = await Promise.all(numbers.map((blockNumber) => blockOrNull(client, blockNumber)));
  let parent = parentHash;
  const blocks: Block[] = [];
  for (const [index, header] of headers.entries()) {
    if (!header?.hash) return { settled: false, reason: `block ${numbers[index]} not found: the node lags` };
    if (parent !== undefined && header.parentHash !== parent) return { settled: false, reason: `block ${header.number} does not follow the block before it` };
    parent = header.hash;
    blocks.push(header);
  }

  const treasuryTopic = pad(settings.treasury);
  const candidates = blocks.filter((block) => {
    const bloom = hexToBytes(block.logsBloom ?? '0x');
    return bloomMayHold(bloom, settings.token) && bloomMayHold(bloom, TRANSFER_TOPIC) && bloomMayHold(bloom, treasuryTopic);
  });
  const answered = await Promise.all(
    candidates.map(async (block) => {
      const logs = await client.getLogs({ blockHash: block.hash ?? '0x', address: settings.token, event: transferEvent, args: { to: settings.treasury }, strict: true });
      return logs.length > 0 ? logs : transfersInReceipts(client, block, settings);
    }),
  );
  if (answered.some((logs) => logs === null)) return { settled: false, reason: 'a block whose bloom may hold a top-up answered no logs, and its receipts are not there yet' };
  const found = answered.flatMap((logs) => logs ?? []);
  const hashOf = new Map(blocks.map((block) => [block.number, block.hash]));
  if (found.some((log) => log.removed || hashOf.get(log.blockNumber) !== log.blockHash)) return { settled: false, reason: 'a log is not in the block read' };

  // Where each transaction's logs start in its block, when the logs read prove it: its first top-up log is the
  // block's first log, or the log just before it is another transaction's (a transaction's logs are contiguous).
  // Else its receipt says (all its logs, in order; it must be in the block read).
  const byIndex = new Map(found.map((log) => [`${log.blockHash}/${log.logIndex}`, log.transactionHash]));
  const firstLog = new Map<Hex, { blockHash: Hex; logIndex: number }>();
  for (const log of found) {
    const first = firstLog.get(log.transactionHash);
    if (!first || log.logIndex < first.logIndex) firstLog.set(log.transactionHash, { blockHash: log.blockHash, logIndex: log.logIndex });
  }
  const unproven = new Set(
    [...firstLog].flatMap(([hash, first]) => {
      const before = byIndex.get(`${first.blockHash}/${first.logIndex - 1}`);
      return first.logIndex === 0 || (before !== undefined && before !== hash) ? [] : [hash];
    }),
  );
  const receipts = new Map((await Promise.all([...unproven].map((hash) => receiptOrNull(client, hash)))).flatMap((receipt) => (receipt ? [[receipt.transactionHash, receipt]] : [])));
  const logs: TopUpLog[] = [];
  for (const log of found) {
    let position = log.logIndex - (firstLog.get(log.transactionHash)?.logIndex ?? 0);
    if (unproven.has(log.transactionHash)) {
      const receipt = receipts.get(log.transactionHash);
      if (receipt?.blockHash !== log.blockHash) return { settled: false, reason: `the receipt of ${log.transactionHash} is not in the block read` };
      position = receipt.logs.findIndex((entry) => entry.logIndex === log.logIndex);
      if (position < 0) return { settled: false, reason: `the receipt of ${log.transactionHash} lacks its log` };
    }
    const amount = toLedgerUnits(log.args.value, chain.token.decimals);
    // Less than a millionth of a token is nothing the ledger can hold.
    if (amount > 0n) logs.push({ txHash: log.transactionHash, logPosition: position, from: getAddress(log.args.from), amount, blockNumber: log.blockNumber, blockHash: log.blockHash });
  }
  const lastHash = blocks.at(-1)?.hash;
  if (!lastHash) return { settled: false, reason: 'an empty range' };
  return { settled: true, logs, lastHash };
}
