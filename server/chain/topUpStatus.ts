/**
 * POST /api/member/topUp (docs/API.md, "Credit on chain"): the status of one top-up transaction of the caller's, looked at
 * now, so the member's screen moves without waiting for the watcher's next round. It reads the chain and the
 * top_ups rows; when the transaction is deep enough it runs a watcher round (which credits by the chain's logs, never
 * by this call's word) and reads again. Calling it any number of times credits nothing twice; calls at once share
 * one round. A node that does not answer is 3007, never an internal error.
 */
import { sql } from 'drizzle-orm';
import { decodeEventLog, getAddress, type Hex, type TransactionReceipt } from 'viem';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import type { TopUpStatus } from '../../api-schema/member';
import { bigintText, queryRows, type Db } from '../db/client';
import type { Chain } from './chain';
import { ChainUnavailableError } from '../errors';
import { receiptOrNull, toLedgerUnits } from './chainReads';
import type { TopUpWatcher } from './topUpWatcher';
import { transferEvent } from './transferEvent';

export interface TopUpAnswer {
  txHash: string;
  status: TopUpStatus;
  confirmations: number;
  required: number;
  amount?: string;
}

const creditedRow = z.object({ fromAddress: z.string(), amount: bigintText });

async function creditedLogs(db: Db, chainId: number, txHash: string) {
  return queryRows(
    db,
    sql`SELECT from_address AS "fromAddress", amount FROM top_ups WHERE chain_id = ${chainId}::int AND tx_hash = ${txHash}::text`,
    creditedRow,
  );
}

/** The caller's top-up in a receipt: the token's Transfer logs from the caller to the treasury, in ledger units. */
function callerTopUp(chain: Chain, receipt: TransactionReceipt, caller: string): bigint | undefined {
  let total: bigint | undefined;
  for (const log of receipt.logs) {
    if (getAddress(log.address) !== chain.settings.token) continue;
    try {
      const decoded = decodeEventLog({ abi: [transferEvent], data: log.data, topics: log.topics });
      if (getAddress(decoded.args.to) !== chain.settings.treasury || getAddress(decoded.args.from) !== caller) continue;
      total = (total ?? 0n) + toLedgerUnits(decoded.args.value, chain.token.decimals);
    } catch {
      // Another event of the token (Approval): not a top-up.
    }
  }
  return total;
}

/**
 * Looks at one transaction for the caller.
 *
 * @param input - database, chain, watcher, the caller's address (checksummed) and the hash
 * @returns the status with its confirmations
 * @example
 * const answer = await topUpStatus({ db, chain, watcher, address, txHash });
 */
export async function topUpStatus(input: { db: Db; chain: Chain; watcher: TopUpWatcher; address: string; txHash: Hex }): Promise<TopUpAnswer> {
  const { db, chain, watcher, address, txHash } = input;
  const chainId = chain.settings.chainId;
  const required = chain.settings.confirmations;
  const answer = (status: TopUpStatus, confirmations: number, amount?: bigint): TopUpAnswer => ({
    txHash,
    status,
    confirmations: Math.min(confirmations, required),
    required,
    ...(amount === undefined ? {} : { amount: formatMinor(amount) }),
  });
  const credited = async () => {
    const rows = await creditedLogs(db, chainId, txHash);
    if (rows.length === 0) return undefined;
    const mine = rows.filter((row) => row.fromAddress === address);
    return mine.length === 0 ? answer('invalid', 0) : answer('credited', required, mine.reduce((sum, row) => sum + row.amount, 0n));
  };
  const known = await credited();
  if (known) return known;

  // The node's failures are the chain's, not the server's: a code the member's screen can wait out (3007).
  const fromChain = <T>(read: Promise<T>): Promise<T> =>
    read.catch(() => {
      throw new ChainUnavailableError();
    });
  const receipt = await fromChain(receiptOrNull(chain.client, txHash));
  if (!receipt) return answer('pending', 0);
  if (receipt.status !== 'success') return answer('invalid', 0);
  const amount = callerTopUp(chain, receipt, address);
  // 0, or less than a millionth of a token: nothing the ledger can credit.
  if (amount === undefined || amount === 0n) return answer('invalid', 0);
  const head = await fromChain(chain.client.getBlockNumber({ cacheTime: 0 }));
  const depth = Number(head - receipt.blockNumber);
  if (depth < required) return answer('confirming', depth, amount);
  // The round (shared with every caller waiting for one) credits by the chain's logs; when it fails, the timer's
  // next round will, and this call says what it knows.
  await watcher.runOnce().catch(() => undefined);
  return (await credited()) ?? answer('confirming', depth, amount);
}
