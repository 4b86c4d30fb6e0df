/**
 * The payer (API.md, "Credit on chain"; docs/decisions/0019-withdrawals-paid-on-chain.md): pays approved withdrawals
 * in the token from one hot wallet, each at most once whatever crashes, restarts or retries happen.
 *
 * - One payer per hot wallet, whatever the number of server instances: a lease in payer_accounts (holder and expiry,
 *   renewed each round, taken over only once expired) and the row's lock around every nonce it hands out.
 * - Nonces come from the database. A withdrawal gets its nonce, is signed locally with viem and stored (nonce, raw
 *   bytes, hash) in the transaction that moves it to `sent`; only then is it broadcast. A crash before the commit
 *   loses a signature and no nonce; after it, the stored bytes are broadcast again.
 * - Until a receipt exists it only ever broadcasts those bytes again, or replaces a stuck one with the same nonce and
 *   a higher fee (both kept: whichever is mined is the payment). One nonce per withdrawal: at most one can be mined.
 * - A receipt at depth posts (status 1) or voids (status 0: the member gets it all back). A nonce the chain used for
 *   another transaction at depth voids too (`nonceUsed`). A receipt that a reorganisation removed is forgotten and
 *   the bytes go out again.
 * - A posted payment stays watched until `watchBlocks` deep: one a deeper reorganisation removed is lost (its block
 *   hash cleared) and its stored bytes go out again until it is mined again; the posting stands, and reconcile shows
 *   what is lost meanwhile.
 * - It never pays more than the hot wallet holds (token, and gas money for the transactions): it waits.
 */
import { sql } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, keccak256, type Address, type Hex, type TransactionReceipt } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { z } from 'zod';
import { ApiCode } from '../../api-schema/codes';
import { bigintText, queryRows, type Db } from '../db/client';
import { postRequests } from '../ledger/engine';
import { failureRequest, postingRequest, sendRequest } from '../ledger/withdrawals';
import type { Chain } from './chain';
import { blockHashAt, receiptOrNull, tokenUnitsOf } from './chainReads';
import { pollLoop } from './pollLoop';

/** The steps a fault test may kill the process at (PAYER_FAULT_AT). */
export const PAYER_STEPS = ['signed', 'stored', 'broadcast', 'receipt', 'beforePost'] as const;
export type PayerStep = (typeof PAYER_STEPS)[number];

export interface PayerOptions {
  db: Db;
  chain: Chain;
  /** The hot wallet's private key (PAYER_KEY). */
  key: Hex;
  /** Who holds the lease: one name per server instance. */
  holder: string;
  /** How long a lease lasts unless renewed (a round renews it). */
  leaseMs?: number;
  /** How often a round runs on the timer. */
  pollMs?: number;
  /** Withdrawals signed per round at most. */
  batch?: number;
  /** Gas limit of a payment (one ERC-20 transfer; a new holder's costs about 52,000). */
  gasLimit?: bigint;
  /** A payment not mined this long, with the base fee above what it offers, is replaced. */
  stuckAfterMs?: number;
  /** How deep a posted payment's block must be before the payer stops checking it is still there (default 64). */
  watchBlocks?: number;
  now: () => Date;
  /** Called at each step (fault tests kill the process there). */
  onStep?: (step: PayerStep) => void;
  onError?: (error: unknown) => void;
  /** A posted payment the chain lost (a reorganisation deeper than the confirmations), or mined again as reverted. */
  onLost?: (lost: { withdrawalId: bigint; hash: Hex; reason: 'reorganised' | 'reverted' }) => void;
}

/** What a round did, for the tests and the log. */
export interface PayerRound {
  leader: boolean;
  signed: number;
  rebroadcast: number;
  replaced: number;
  posted: number;
  voided: number;
  /** Posted payments a reorganisation deeper than the confirmations removed, sent again this round. */
  lost: number;
  /** Why approved withdrawals wait, if they do. */
  waiting: 'token' | 'gas' | null;
}

export interface Payer {
  address: Address;
  gasLimit: bigint;
  round(): Promise<PayerRound>;
  start(): void;
  stop(): Promise<void>;
}

const leaseRow = z.object({ nextNonce: bigintText });
const postedRow = z.object({ id: bigintText, hash: z.string(), blockNumber: bigintText, blockHash: z.string().nullable() });
const approvedRow = z.object({ id: bigintText, amount: bigintText, fee: bigintText, address: z.string() });
const sentRow = z.object({
  id: bigintText,
  amount: bigintText,
  fee: bigintText,
  hash: z.string(),
  nonce: bigintText,
  raw: z.string(),
  maxFeePerGas: z.string(),
  maxPriorityFeePerGas: z.string(),
  address: z.string(),
  tokenAmount: z.string(),
  createdAt: z.coerce.date(),
  blockHash: z.string().nullable(),
});


/** The fees a new payment offers over a block's base fee: twice the base fee and a 1 gwei tip. */
export function feesOver(baseFee: bigint): { baseFee: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  const maxPriorityFeePerGas = 1_000_000_000n;
  return { baseFee, maxPriorityFeePerGas, maxFeePerGas: baseFee * 2n + maxPriorityFeePerGas };
}

/**
 * What the hot wallet has on its way: the token of its sent, not yet final payments (one per withdrawal, whichever
 * attempt) and how many they are. The payer does not spend it again; reconcile shows it.
 *
 * @param db - database handle or transaction
 * @param payer - the hot wallet
 * @returns token units and the number of payments
 * @example
 * const { tokens, count } = await paymentsInFlight(tx, payer.address);
 */
export async function paymentsInFlight(db: Db, payer: Address): Promise<{ tokens: bigint; count: number }> {
  const [row] = await queryRows(
    db,
    sql`SELECT coalesce(sum(x.token_amount::numeric), 0)::text AS amount, count(*)::int AS count FROM (
          SELECT DISTINCT ON (p.withdrawal_id) p.token_amount FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id
          WHERE d.stage = 'sent' AND p.payer = ${payer}) x`,
    z.object({ amount: z.string(), count: z.number() }),
  );
  return { tokens: BigInt(row?.amount ?? '0'), count: row?.count ?? 0 };
}

/** Fee raised by 12.5 %, rounded up: more than the 10 % nodes ask of a replacement. */
const raised = (fee: bigint) => (fee * 9n + 7n) / 8n;

/** Keeps a payment's receipt: its block, status (1 paid, 0 reverted) and gas. */
const keepReceipt = (db: Db, hash: string, receipt: TransactionReceipt) =>
  db.execute(
    sql`UPDATE payments SET block_number = ${receipt.blockNumber.toString()}::bigint, block_hash = ${receipt.blockHash}, receipt_status = ${receipt.status === 'success' ? 1 : 0}::int, gas_used = ${receipt.gasUsed.toString()}::bigint WHERE hash = ${hash}`,
  );

/** Forgets the receipts kept for these payments (the chain no longer has them, or another attempt has the one). */
const forgetReceipts = (db: Db, where: ReturnType<typeof sql>) =>
  db.execute(sql`UPDATE payments SET block_number = NULL, block_hash = NULL, receipt_status = NULL, gas_used = NULL WHERE ${where}`);

/**
 * Creates the payer of one hot wallet.
 *
 * @param options - database, chain, key, this instance's name, timings
 * @returns round() (one pass: lease, follow sent payments, sign new ones), start(), stop()
 * @example
 * const payer = createPayer({ db, chain, key: env.PAYER_KEY, holder: instanceId, now });
 * payer.start();
 */
export function createPayer(options: PayerOptions): Payer {
  const { db, chain } = options;
  const account: PrivateKeyAccount = privateKeyToAccount(options.key);
  const leaseMs = options.leaseMs ?? 15_000;
  const batch = options.batch ?? 500;
  const gasLimit = options.gasLimit ?? 100_000n;
  const stuckAfterMs = options.stuckAfterMs ?? 30_000;
  // Two epochs: an Ethereum block this deep is final.
  const watchBlocks = BigInt(options.watchBlocks ?? 64);
  const step = (name: PayerStep) => options.onStep?.(name);
  const client = chain.client;
  const chainId = chain.settings.chainId;
  const token = chain.token.address;

  /** Takes or renews the lease; the database's clock decides expiry, so instances need not agree on time. */
  async function lease(): Promise<boolean> {
    const chainNonce = BigInt(await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
    const rows = await queryRows(
      db,
      sql`INSERT INTO payer_accounts (address, chain_id, next_nonce, lease_holder, lease_until)
          VALUES (${account.address}, ${chainId}, ${chainNonce.toString()}::bigint, ${options.holder}, clock_timestamp() + ${`${leaseMs} milliseconds`}::interval)
          ON CONFLICT (address) DO UPDATE SET lease_holder = excluded.lease_holder, lease_until = excluded.lease_until
          WHERE payer_accounts.lease_holder = excluded.lease_holder OR payer_accounts.lease_until IS NULL OR payer_accounts.lease_until < clock_timestamp()
          RETURNING next_nonce AS "nextNonce"`,
      leaseRow,
    );
    return rows.length > 0;
  }

  // Only "no receipt" is null: any other failure fails the round, never reads as a payment that was not mined (a void
  // then would refund a member who was paid).
  const receiptOf = (hash: Hex) => receiptOrNull(client, hash);

  async function broadcast(raws: readonly Hex[]): Promise<void> {
    // Sent all at once (the transport batches them); a node that has one already, or has mined it, says so: fine.
    await Promise.all(raws.map((raw) => client.request({ method: 'eth_sendRawTransaction', params: [raw] }).catch(() => undefined)));
  }

  async function fees(): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; baseFee: bigint }> {
    const block = await client.getBlock({ blockTag: 'latest' });
    return feesOver(block.baseFeePerGas ?? 0n);
  }

  async function sign(fields: { to: Address; tokenAmount: bigint; nonce: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }) {
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId,
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [fields.to, fields.tokenAmount] }),
      value: 0n,
      gas: gasLimit,
      nonce: Number(fields.nonce),
      maxFeePerGas: fields.maxFeePerGas,
      maxPriorityFeePerGas: fields.maxPriorityFeePerGas,
    });
    return { raw, hash: keccak256(raw) };
  }

  /** Follows every sent withdrawal: posts or voids at depth, forgets receipts a reorganisation took, rebroadcasts or replaces. */
  async function follow(round: PayerRound, head: bigint, fee: { baseFee: bigint; maxPriorityFeePerGas: bigint }): Promise<void> {
    const rows = await queryRows(
      db,
      sql`SELECT w.id, w.amount, w.fee, p.hash, p.nonce, p.raw, p.max_fee_per_gas AS "maxFeePerGas", p.max_priority_fee_per_gas AS "maxPriorityFeePerGas",
            m.address, p.token_amount AS "tokenAmount", p.created_at AS "createdAt", p.block_hash AS "blockHash"
          FROM ledger_pending d JOIN withdrawals w ON w.id = d.id JOIN members m ON m.id = w.member_id JOIN payments p ON p.withdrawal_id = w.id
          WHERE d.stage = 'sent' AND p.payer = ${account.address}
          ORDER BY p.nonce, p.created_at`,
      sentRow,
    );
    if (rows.length === 0) return;
    const byWithdrawal = new Map<bigint, z.output<typeof sentRow>[]>();
    for (const row of rows) byWithdrawal.set(row.id, [...(byWithdrawal.get(row.id) ?? []), row]);
    const receipts = new Map<string, TransactionReceipt | null>();
    await Promise.all(rows.map(async (row) => receipts.set(row.hash, await receiptOf(row.hash as Hex))));
    // The nonce the chain had used at depth: a payment's nonce below it was used by whatever mined there.
    const settledNonce = BigInt(await client.getTransactionCount({ address: account.address, blockNumber: head >= BigInt(chain.settings.confirmations) ? head - BigInt(chain.settings.confirmations) : 0n }));
    const now = options.now();
    const rebroadcast: Hex[] = [];
    // Posts and voids at depth, as one batch of the engine.
    const settled: { request: ReturnType<typeof postingRequest>; paid: boolean }[] = [];
    for (const [id, attempts] of byWithdrawal) {
      const mined = attempts.find((attempt) => receipts.get(attempt.hash));
      // Receipts kept that the chain no longer has (a reorganisation): forgotten.
      for (const attempt of attempts) {
        if (attempt.blockHash !== null && !receipts.get(attempt.hash)) {
          await forgetReceipts(db, sql`hash = ${attempt.hash}`);
        }
      }
      const first = attempts[0];
      if (!first) continue;
      if (mined) {
        const receipt = receipts.get(mined.hash);
        if (!receipt) continue;
        if (mined.blockHash !== receipt.blockHash) {
          await keepReceipt(db, mined.hash, receipt);
          step('receipt');
        }
        if (head - receipt.blockNumber < BigInt(chain.settings.confirmations)) continue;
        const paid = receipt.status === 'success';
        settled.push({ request: paid ? postingRequest({ id, amount: first.amount, fee: first.fee }, now) : failureRequest(id, 'reverted', now), paid });
        continue;
      }
      if (first.nonce < settledNonce) {
        // The nonce is used at depth and none of ours is mined: another transaction took it; this one never will be.
        settled.push({ request: failureRequest(id, 'nonceUsed', now), paid: false });
        continue;
      }
      const latest = attempts[attempts.length - 1] ?? first;
      const stuck = now.getTime() - latest.createdAt.getTime() >= stuckAfterMs && fee.baseFee + BigInt(latest.maxPriorityFeePerGas) > BigInt(latest.maxFeePerGas);
      if (stuck) {
        const maxPriorityFeePerGas = [raised(BigInt(latest.maxPriorityFeePerGas)), fee.maxPriorityFeePerGas].reduce((a, b) => (a > b ? a : b));
        const maxFeePerGas = [raised(BigInt(latest.maxFeePerGas)), fee.baseFee * 2n + maxPriorityFeePerGas].reduce((a, b) => (a > b ? a : b));
        const signed = await sign({ to: first.address as Address, tokenAmount: BigInt(first.tokenAmount), nonce: first.nonce, maxFeePerGas, maxPriorityFeePerGas });
        await db.execute(
          sql`INSERT INTO payments (hash, withdrawal_id, chain_id, payer, nonce, token_amount, max_fee_per_gas, max_priority_fee_per_gas, raw, created_at)
              VALUES (${signed.hash}, ${id.toString()}::bigint, ${chainId}, ${account.address}, ${first.nonce.toString()}::bigint, ${first.tokenAmount},
                ${maxFeePerGas.toString()}, ${maxPriorityFeePerGas.toString()}, ${signed.raw}, ${now}::timestamptz)
              ON CONFLICT (hash) DO NOTHING`,
        );
        rebroadcast.push(signed.raw);
        round.replaced++;
        continue;
      }
      // Every stored attempt again: whichever the node kept (or dropped) is sent once more, never a new one.
      for (const attempt of attempts) rebroadcast.push(attempt.raw as Hex);
    }
    if (settled.length > 0) {
      step('beforePost');
      const outcomes = await postRequests(db, settled.map((entry) => entry.request));
      settled.forEach((entry, index) => {
        if (outcomes[index]?.code !== ApiCode.ok) return;
        if (entry.paid) round.posted++;
        else round.voided++;
      });
    }
    if (rebroadcast.length > 0) {
      await broadcast(rebroadcast);
      round.rebroadcast += rebroadcast.length;
    }
  }

  /**
   * Checks that the posted payments of the last `watchBlocks` blocks are still on chain (a block at a time: its hash
   * unchanged, all in it stand). One a reorganisation deeper than the confirmations removed is lost: its block hash is
   * cleared and all its withdrawal's stored bytes go out again (the same nonce: at most one can be mined) until one is
   * mined again, which is then recorded. The posting is never undone: the member's debit is final, the payment comes.
   */
  async function watchPosted(round: PayerRound, head: bigint): Promise<void> {
    const rows = await queryRows(
      db,
      // Two disjoint halves, each on its index (payments_payer_block_idx, payments_lost_idx).
      sql`SELECT p.withdrawal_id AS id, p.hash, p.block_number AS "blockNumber", p.block_hash AS "blockHash"
          FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id
          WHERE d.stage = 'posted' AND p.payer = ${account.address} AND p.block_hash IS NOT NULL AND p.block_number >= ${(head - watchBlocks).toString()}::bigint
          UNION ALL
          SELECT p.withdrawal_id, p.hash, p.block_number, p.block_hash
          FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id
          WHERE d.stage = 'posted' AND p.payer = ${account.address} AND p.receipt_status IS NOT NULL AND p.block_hash IS NULL`,
      postedRow,
    );
    if (rows.length === 0) return;
    const numbers = [...new Set(rows.filter((row) => row.blockHash !== null).map((row) => row.blockNumber))];
    // A block the chain no longer has at all (it is shorter now) counts as changed.
    const hashAt = (blockNumber: bigint) => blockHashAt(client, blockNumber);
    const blocks = new Map(await Promise.all(numbers.map(async (number) => [number, await hashAt(number)] as const)));
    const rebroadcast: Hex[] = [];
    for (const row of rows.filter((each) => each.blockHash === null || blocks.get(each.blockNumber) !== each.blockHash)) {
      const attempts = await queryRows(db, sql`SELECT hash, raw FROM payments WHERE withdrawal_id = ${row.id.toString()}::bigint ORDER BY created_at`, z.object({ hash: z.string(), raw: z.string() }));
      const receipts = await Promise.all(attempts.map((attempt) => receiptOf(attempt.hash as Hex)));
      const index = receipts.findIndex((receipt) => receipt !== null);
      const receipt = receipts[index];
      const mined = attempts[index];
      if (receipt && mined) {
        // Mined again (or found in another block): the receipt is kept on the attempt that has it.
        await db.transaction(async (tx) => {
          await forgetReceipts(tx, sql`withdrawal_id = ${row.id.toString()}::bigint AND hash <> ${mined.hash}`);
          await keepReceipt(tx, mined.hash, receipt);
        });
        if (receipt.status !== 'success') options.onLost?.({ withdrawalId: row.id, hash: mined.hash as Hex, reason: 'reverted' });
        continue;
      }
      if (row.blockHash !== null) {
        await db.execute(sql`UPDATE payments SET block_hash = NULL WHERE hash = ${row.hash}`);
        options.onLost?.({ withdrawalId: row.id, hash: row.hash as Hex, reason: 'reorganised' });
      }
      round.lost++;
      for (const attempt of attempts) rebroadcast.push(attempt.raw as Hex);
    }
    if (rebroadcast.length > 0) await broadcast(rebroadcast);
  }

  /** Signs approved withdrawals that the hot wallet can pay, stores them as sent, then broadcasts them. */
  async function sendNew(round: PayerRound, fee: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }): Promise<void> {
    const [tokenBalance, gasBalance] = await Promise.all([
      client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] }),
      client.getBalance({ address: account.address }),
    ]);
    const signed = await db.transaction(async (tx) => {
      const [payer] = await queryRows(
        tx,
        sql`SELECT next_nonce AS "nextNonce" FROM payer_accounts WHERE address = ${account.address} AND lease_holder = ${options.holder} FOR UPDATE`,
        leaseRow,
      );
      if (!payer) return [];
      const approved = await queryRows(
        tx,
        sql`SELECT w.id, w.amount, w.fee, m.address FROM ledger_pending d JOIN withdrawals w ON w.id = d.id JOIN members m ON m.id = w.member_id
            WHERE d.stage = 'approved' ORDER BY d.id LIMIT ${batch}::int`,
        approvedRow,
      );
      if (approved.length === 0) return [];
      // What is already on its way (sent, not mined) is not the payer's to spend again.
      const inFlight = await paymentsInFlight(tx, account.address);
      let tokenLeft = tokenBalance - inFlight.tokens;
      let gasLeft = gasBalance - BigInt(inFlight.count) * gasLimit * fee.maxFeePerGas;
      const payable: (z.output<typeof approvedRow> & { tokenAmount: bigint })[] = [];
      for (const row of approved) {
        const tokenAmount = tokenUnitsOf(row.amount - row.fee, chain.token.decimals);
        // In order: a withdrawal the wallet cannot pay waits, and so do those after it.
        if (tokenAmount > tokenLeft) {
          round.waiting = 'token';
          break;
        }
        if (gasLimit * fee.maxFeePerGas > gasLeft) {
          round.waiting = 'gas';
          break;
        }
        tokenLeft -= tokenAmount;
        gasLeft -= gasLimit * fee.maxFeePerGas;
        payable.push({ ...row, tokenAmount });
      }
      if (payable.length === 0) return [];
      const now = options.now();
      const outcomes = await postRequests(tx, payable.map((row) => sendRequest(row.id, now)));
      let nonce = payer.nextNonce;
      const stored: { raw: Hex; hash: Hex }[] = [];
      const values: ReturnType<typeof sql>[] = [];
      for (const [index, row] of payable.entries()) {
        if (outcomes[index]?.code !== ApiCode.ok) continue;
        const transaction = await sign({ to: row.address as Address, tokenAmount: row.tokenAmount, nonce, ...fee });
        values.push(
          sql`(${transaction.hash}, ${row.id.toString()}::bigint, ${chainId}, ${account.address}, ${nonce.toString()}::bigint, ${row.tokenAmount.toString()},
            ${fee.maxFeePerGas.toString()}, ${fee.maxPriorityFeePerGas.toString()}, ${transaction.raw}, ${now}::timestamptz)`,
        );
        stored.push(transaction);
        nonce++;
      }
      if (stored.length === 0) return [];
      step('signed');
      await tx.execute(
        sql`INSERT INTO payments (hash, withdrawal_id, chain_id, payer, nonce, token_amount, max_fee_per_gas, max_priority_fee_per_gas, raw, created_at)
            VALUES ${sql.join(values, sql`, `)}`,
      );
      await tx.execute(sql`UPDATE payer_accounts SET next_nonce = ${nonce.toString()}::bigint WHERE address = ${account.address}`);
      return stored;
    });
    if (signed.length === 0) return;
    step('stored');
    await broadcast(signed.map((transaction) => transaction.raw));
    round.signed += signed.length;
    step('broadcast');
  }

  /** Another transaction from the hot wallet (its key used elsewhere) moved the chain's nonce past ours: skip ahead. */
  async function catchUpNonce(): Promise<void> {
    const chainNonce = BigInt(await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
    await db.execute(sql`UPDATE payer_accounts SET next_nonce = ${chainNonce.toString()}::bigint WHERE address = ${account.address} AND next_nonce < ${chainNonce.toString()}::bigint`);
  }

  async function round(): Promise<PayerRound> {
    const result: PayerRound = { leader: false, signed: 0, rebroadcast: 0, replaced: 0, posted: 0, voided: 0, lost: 0, waiting: null };
    if (!(await lease())) return result;
    result.leader = true;
    const [head, fee] = await Promise.all([client.getBlockNumber({ cacheTime: 0 }), fees()]);
    await follow(result, head, fee);
    await watchPosted(result, head);
    await catchUpNonce();
    await sendNew(result, fee);
    return result;
  }

  const loop = pollLoop(round, options.pollMs ?? 1_000, options.onError);
  return {
    address: account.address,
    gasLimit,
    round,
    start: loop.start,
    stop: async () => {
      await loop.stop();
      // A stopping instance gives the lease up, so another takes over at once.
      await db.execute(sql`UPDATE payer_accounts SET lease_until = NULL, lease_holder = NULL WHERE address = ${account.address} AND lease_holder = ${options.holder}`).catch(() => undefined);
    },
  };
}
