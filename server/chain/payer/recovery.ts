/**
 * The recovery from the chain (docs/API.md, "Credit on chain: the payer's journal"): reads what the hot wallet did
 * from the first nonce the database does not account for up to the chain's count at depth, and records each
 * transaction as what it is. A payment naming an approved withdrawal (paymentTag.ts) is stored as that withdrawal's
 * payment and the withdrawal moves to sent, so the payer posts it at depth as any other; the payer's own filler
 * (a zero-value transfer to itself) needs nothing; anything else is an unknown payment (unknown_payments) that holds
 * payouts until an operator settles it. Only nonces at depth are read (a reorganisation above it could still give the
 * nonce to another transaction), and a nonce whose transaction no node shows stops the scan there: never a guess.
 */
import { sql } from 'drizzle-orm';
import { isAddressEqual, keccak256, serializeTransaction, type Address, type Hex, type Transaction } from 'viem';
import { z } from 'zod';
import { ApiCode } from '../../../api-schema/codes';
import { bigintText, queryRows, type Db } from '../../db/client';
import { RequestInProgressError } from '../../errors';
import { postRequests } from '../../ledger/engine';
import { sendRequest } from '../../ledger/withdrawals';
import { payeeJoinSql, payeeSql, WithdrawalStage } from '../../ledger/withdrawalLifecycle';
import type { Chain } from '../chain';
import { receiptOrNull, tokenUnitsOf, toLedgerUnits } from '../chainReads';
import { readTransferData, withdrawalFingerprint } from './paymentTag';
import { storePayments } from './payments';
import { nonceTaker, paysMember } from './proofs';

/** How many nonces one run reads at most; a longer history takes more runs. */
export const RECOVERY_MAX_NONCES = 500;

export type UnknownPaymentKind = 'unknownWithdrawal' | 'notApproved' | 'untagged' | 'foreign';

/** A transaction of the hot wallet read from the chain at one nonce. */
export interface ChainTransaction {
  nonce: bigint;
  hash: Hex;
  blockNumber: bigint;
  raw: Hex;
  /** The token transfer it makes and pays, if it does; the withdrawal it names, if tagged. */
  transfer: { to: Address; tokenAmount: bigint; withdrawalId: bigint | null; fingerprint: string | null } | null;
  /** A zero-value transfer of the hot wallet to itself with no calldata: the payer's own filler. */
  filler: boolean;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface ChainScan {
  /** The first nonce the database did not account for when the scan began. */
  fromNonce: bigint;
  /** The chain's count at depth: the scan reads below it. */
  toNonce: bigint;
  found: ChainTransaction[];
  /** The nonce the scan stopped at because no node showed its transaction yet (null: it read them all). */
  stoppedAt: bigint | null;
}

/** The signed bytes of a transaction as the node answers it, checked against its hash. */
function rawOf(transaction: Transaction): Hex {
  const { r, s, v, yParity } = transaction;
  const signature = yParity === undefined ? { r, s, v } : { r, s, yParity };
  const fields = { ...transaction, data: transaction.input };
  const raw = serializeTransaction(fields as Parameters<typeof serializeTransaction>[0], signature);
  if (keccak256(raw) !== transaction.hash) throw new Error(`transaction ${transaction.hash} does not serialise to its hash`);
  return raw;
}

const knownRow = z.object({ knownNonce: bigintText.nullable() });

/**
 * Reads the hot wallet's transactions the database does not account for, up to the count at depth.
 *
 * @param db - database handle
 * @param chain - the app's chain
 * @param payer - the hot wallet
 * @returns the transactions found, in nonce order, and where the scan stopped
 * @example
 * const scan = await scanChain(db, chain, payer.address);
 */
export async function scanChain(db: Db, chain: Chain, payer: Address): Promise<ChainScan> {
  const { client } = chain;
  const [[known], head] = await Promise.all([
    queryRows(db, sql`SELECT (SELECT next_nonce FROM payer_accounts WHERE address = ${payer}) AS "knownNonce"`, knownRow),
    client.getBlockNumber({ cacheTime: 0 }),
  ]);
  const fromNonce = known?.knownNonce ?? 0n;
  const confirmations = BigInt(chain.settings.confirmations);
  const depthBlock = head >= confirmations ? head - confirmations : 0n;
  const toNonce = BigInt(await client.getTransactionCount({ address: payer, blockNumber: depthBlock }));
  const found: ChainTransaction[] = [];
  const last = toNonce < fromNonce + BigInt(RECOVERY_MAX_NONCES) ? toNonce : fromNonce + BigInt(RECOVERY_MAX_NONCES);
  for (let nonce = fromNonce; nonce < last; nonce++) {
    const taker = await nonceTaker(client, payer, nonce, depthBlock);
    const transaction = taker ? await client.getTransaction({ hash: taker.hash }).catch(() => null) : null;
    if (!taker || !transaction) return { fromNonce, toNonce, found, stoppedAt: nonce };
    const read = transaction.to && isAddressEqual(transaction.to, chain.token.address) ? readTransferData(transaction.input) : null;
    let transfer: ChainTransaction['transfer'] = null;
    if (read) {
      // A transfer that reverted, or a token that returned false, moved nothing: not a payment.
      const receipt = await receiptOrNull(client, transaction.hash);
      if (!receipt) return { fromNonce, toNonce, found, stoppedAt: nonce };
      if (paysMember(receipt, { token: chain.token.address, from: payer, to: read.to, amount: read.tokenAmount })) transfer = read;
    }
    const filler = transaction.to !== null && isAddressEqual(transaction.to, payer) && transaction.value === 0n && transaction.input === '0x';
    found.push({
      nonce,
      hash: transaction.hash,
      blockNumber: taker.blockNumber,
      raw: rawOf(transaction),
      transfer,
      filler,
      maxFeePerGas: transaction.maxFeePerGas ?? transaction.gasPrice ?? 0n,
      maxPriorityFeePerGas: transaction.maxPriorityFeePerGas ?? transaction.gasPrice ?? 0n,
    });
  }
  return { fromNonce, toNonce, found, stoppedAt: null };
}

const withdrawalRow = z.object({ id: bigintText, amount: bigintText, fee: bigintText, address: z.string(), stage: z.string(), createdAt: z.coerce.date() });
const memberRow = z.object({ id: z.number() });

export interface RecoveryOutcome {
  fromNonce: string;
  toNonce: string;
  /** Payments of approved withdrawals recorded as sent (the payer posts them at depth). */
  recordedPayments: number;
  /** Fillers of the payer's own, accounted for. */
  fillers: number;
  /** Transactions recorded as unknown payments, for operators to settle. */
  unknownPayments: number;
  /** The nonce the scan stopped at, waiting for a node to show its transaction; null when it read them all. */
  stoppedAt: string | null;
  /** The first nonce the database still does not account for. */
  knownNonce: string;
}

/**
 * Records a scan in the database (the operator's act's transaction): each transaction in nonce order, and the
 * payer's account row's next nonce after the last. The row is locked; a scan that began from another nonce than the
 * row holds now (another run recorded meanwhile) is refused with 3005.
 *
 * @param tx - the act's transaction
 * @param chain - the app's chain
 * @param payer - the hot wallet
 * @param scan - what scanChain read
 * @param by - who ran it, and when
 * @returns what was recorded
 * @throws RequestInProgressError (3005) when another run recorded since the scan began
 * @example
 * const outcome = await recordScan(tx, chain, payer.address, scan, { operator: '0x…', now });
 */
export async function recordScan(tx: Db, chain: Chain, payer: Address, scan: ChainScan, by: { operator: string | null; now: Date }): Promise<RecoveryOutcome> {
  await tx.execute(
    sql`INSERT INTO payer_accounts (address, chain_id, next_nonce) VALUES (${payer}, ${chain.settings.chainId}, 0) ON CONFLICT (address) DO NOTHING`,
  );
  const [row] = await queryRows(tx, sql`SELECT next_nonce AS "knownNonce" FROM payer_accounts WHERE address = ${payer} FOR UPDATE`, knownRow);
  if ((row?.knownNonce ?? 0n) !== scan.fromNonce) throw new RequestInProgressError();
  const outcome: RecoveryOutcome = {
    fromNonce: scan.fromNonce.toString(),
    toNonce: scan.toNonce.toString(),
    recordedPayments: 0,
    fillers: 0,
    unknownPayments: 0,
    stoppedAt: scan.stoppedAt?.toString() ?? null,
    knownNonce: scan.fromNonce.toString(),
  };
  for (const found of scan.found) {
    const kind = await recordOne(tx, chain, payer, found, by);
    if (kind === 'payment') outcome.recordedPayments++;
    else if (kind === 'filler') outcome.fillers++;
    else outcome.unknownPayments++;
    outcome.knownNonce = (found.nonce + 1n).toString();
  }
  await tx.execute(sql`UPDATE payer_accounts SET next_nonce = ${outcome.knownNonce}::bigint WHERE address = ${payer}`);
  return outcome;
}

async function recordOne(tx: Db, chain: Chain, payer: Address, found: ChainTransaction, by: { operator: string | null; now: Date }): Promise<'payment' | 'filler' | UnknownPaymentKind> {
  const { transfer } = found;
  if (!transfer) {
    if (found.filler) return 'filler';
    await storeUnknown(tx, chain, payer, found, 'foreign', by);
    return 'foreign';
  }
  let kind: UnknownPaymentKind = 'untagged';
  if (transfer.withdrawalId !== null) {
    const [withdrawal] = await queryRows(
      tx,
      sql`SELECT w.id, w.amount, w.fee, ${payeeSql} AS address, d.stage, w.created_at AS "createdAt" FROM withdrawals w JOIN ledger_pending d ON d.id = w.id ${payeeJoinSql}
          WHERE w.id = ${transfer.withdrawalId.toString()}::bigint FOR UPDATE OF d`,
      withdrawalRow,
    );
    // The same id with another fingerprint is a withdrawal this database never saw: its id was given again after a
    // restore (paymentTag.ts).
    const same = withdrawal && withdrawalFingerprint(withdrawal) === transfer.fingerprint ? withdrawal : undefined;
    kind = same ? 'notApproved' : 'unknownWithdrawal';
    const pays =
      same &&
      same.stage === WithdrawalStage.approved &&
      isAddressEqual(same.address as Address, transfer.to) &&
      tokenUnitsOf(same.amount - same.fee, chain.token.decimals) === transfer.tokenAmount;
    if (same && pays) {
      const [moved] = await postRequests(tx, [sendRequest(same.id, by.now)]);
      if (moved?.code === ApiCode.ok) {
        await storePayments(tx, [
          {
            hash: found.hash,
            raw: found.raw,
            withdrawalId: same.id,
            chainId: chain.settings.chainId,
            payer,
            nonce: found.nonce,
            tokenAmount: transfer.tokenAmount,
            maxFeePerGas: found.maxFeePerGas,
            maxPriorityFeePerGas: found.maxPriorityFeePerGas,
            createdAt: by.now,
          },
        ]);
        return 'payment';
      }
    }
  }
  await storeUnknown(tx, chain, payer, found, kind, by);
  return kind;
}

async function storeUnknown(tx: Db, chain: Chain, payer: Address, found: ChainTransaction, kind: UnknownPaymentKind, by: { operator: string | null; now: Date }): Promise<void> {
  const { transfer } = found;
  const amount = transfer ? toLedgerUnits(transfer.tokenAmount, chain.token.decimals) : 0n;
  const [member] = transfer ? await queryRows(tx, sql`SELECT id FROM members WHERE lower(address) = lower(${transfer.to})`, memberRow) : [];
  await tx.execute(
    sql`INSERT INTO unknown_payments (hash, chain_id, payer, nonce, block_number, kind, to_address, token_amount, amount, named_withdrawal_id, member_id, found_at, found_by)
        VALUES (${found.hash}, ${chain.settings.chainId}, ${payer}, ${found.nonce.toString()}::bigint, ${found.blockNumber.toString()}::bigint, ${kind},
          ${transfer?.to ?? null}, ${transfer?.tokenAmount.toString() ?? null}, ${amount.toString()}::bigint, ${transfer?.withdrawalId?.toString() ?? null}::bigint,
          ${member?.id ?? null}::int, ${by.now.toISOString()}::timestamptz, ${by.operator})
        ON CONFLICT (hash) DO NOTHING`,
  );
}
