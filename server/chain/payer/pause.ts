/**
 * Payouts stop on doubt (docs/API.md, "Credit on chain: payouts paused"): when the newest reconcile since the last
 * resume is not ok, a payment is lost, a payment the database never knew waits to be settled, or the chain's newest
 * block is older than the stale threshold, the payer opens a pause (payout_pauses, one
 * open at most, its audit row in the same transaction) and signs no new payment until two finance operators resume
 * it (opsPayoutsResume, under the policy's `payoutsResume`). Payments already signed still go out, are replaced
 * when stuck and post or void at depth: a pause stops new money leaving, not what already left. A pause stays when
 * its cause clears by itself: someone looks before money moves again; resuming is refused while a cause holds.
 * The journal's own halt (journal.ts: the chain shows nonces the database does not know) stops more, replacements
 * too, and ends by itself once they are accounted for; members see it as the cause `journal`.
 */
import { sql } from 'drizzle-orm';
import type { PublicClient } from 'viem';
import { z } from 'zod';
import { pauseCauseSchema } from '../../../api-schema/dapp';
import { bigintText, queryRows, type Db } from '../../db/client';
import { recordAudit } from '../../ops/audit';
import { approvalsOf } from '../../ops/secondApprovals';
import { lostPayments } from '../paymentWatch';
import type { PauseCause, PayerJournal, PayoutDoubt, PayoutPause } from './types';

const doubtSchema = z.object({ cause: pauseCauseSchema, detail: z.string() });
const pauseRow = z.object({ id: bigintText, pausedAt: z.coerce.date(), causes: z.array(doubtSchema) });

/** The pause's columns as pauseRow reads them. */
const pauseColumnsSql = sql`id, paused_at AS "pausedAt", causes`;

/**
 * The open pause, if any.
 *
 * @param db - database handle (or the act's transaction)
 * @param options - lock the row for the act's transaction
 * @returns the pause, or null while payouts go on
 * @example
 * const pause = await openPause(db);
 */
export async function openPause(db: Db, options: { forUpdate?: boolean } = {}): Promise<PayoutPause | null> {
  const [row] = await queryRows(db, sql`SELECT ${pauseColumnsSql} FROM payout_pauses WHERE resumed_at IS NULL ${options.forUpdate ? sql`FOR UPDATE` : sql``}`, pauseRow);
  return row ?? null;
}

/**
 * Whether a pause of this id was ever opened (a resume of one that is not open: resumed already, or unknown).
 *
 * @param tx - database handle or the act's transaction
 * @param id - the pause's id as the contract gives it
 * @returns true when it exists
 * @example
 * if (!(await pauseExists(tx, '3'))) throw new NotFoundError();
 */
export async function pauseExists(tx: Db, id: string): Promise<boolean> {
  const rows = await queryRows(tx, sql`SELECT id FROM payout_pauses WHERE id = ${id}::bigint`, z.object({ id: z.unknown() }));
  return rows.length > 0;
}

const reconcileRow = z.object({ ok: z.boolean(), ranAt: z.coerce.date(), difference: bigintText });

/**
 * What the payer doubts now, from what it has at hand in a round (the journal it read, the newest scheduled reconcile
 * since the last resume, the lost payments, the head's age). Cheap enough for every round: indexed reads and one
 * block.
 *
 * @param db - database handle
 * @param client - the chain's client
 * @param input - the journal of this round, the time, the stale threshold
 * @returns the causes seen, none when payouts may go on
 * @throws whatever the chain's read throws: a round that cannot tell signs nothing new
 * @example
 * const doubts = await roundDoubts(db, client, { journal, now: new Date(), chainStaleSeconds: 300 });
 */
export async function roundDoubts(db: Db, client: PublicClient, input: { journal: PayerJournal; now: Date; chainStaleSeconds: number }): Promise<PayoutDoubt[]> {
  const [lost, [run], block] = await Promise.all([
    lostPayments(db),
    queryRows(
      db,
      sql`SELECT ok, ran_at AS "ranAt", difference FROM reconcile_runs
          WHERE ran_at > coalesce((SELECT max(resumed_at) FROM payout_pauses), '-infinity'::timestamptz)
          ORDER BY id DESC LIMIT 1`,
      reconcileRow,
    ),
    // The newest block the node has (one that lags answers its own): how stale what the payer sees is.
    client.getBlock({ blockTag: 'latest' }),
  ]);
  const doubts: PayoutDoubt[] = [];
  if (input.journal.unsettled > 0) doubts.push({ cause: 'unknownPayment', detail: `${input.journal.unsettled} payment(s) found on chain wait to be settled` });
  if (lost.length > 0) doubts.push({ cause: 'lostPayment', detail: `${lost.length} payment(s) lost: ${lost.map((entry) => entry.hash).join(', ')}` });
  if (run && !run.ok) doubts.push({ cause: 'reconcile', detail: `reconcile at ${run.ranAt.toISOString()} is not ok (difference ${run.difference} minor units)` });
  const stale = staleDoubt(Number(block.timestamp), input.now, input.chainStaleSeconds);
  if (stale) doubts.push(stale);
  return doubts;
}

/**
 * The stale chain's cause, if its newest block is older than the threshold.
 *
 * @param timestamp - the newest block's time, seconds
 * @param now - the server's time
 * @param chainStaleSeconds - the threshold (ALERT_CHAIN_STALE_SECONDS)
 * @returns the cause or null
 * @example
 * staleDoubt(Number(block.timestamp), new Date(), 300);
 */
export function staleDoubt(timestamp: number, now: Date, chainStaleSeconds: number): PayoutDoubt | null {
  const age = Math.floor(now.getTime() / 1000 - timestamp);
  return age > chainStaleSeconds ? { cause: 'chainStale', detail: `the newest block is ${age} s old` } : null;
}

/**
 * Opens a pause with the causes seen, unless one is open (on any instance): the row and its audit row in one
 * transaction.
 *
 * @param db - database handle
 * @param doubts - the causes, at least one
 * @param now - the time
 * @returns the open pause (this one, or the one already open)
 * @example
 * const pause = await pausePayouts(db, doubts, new Date());
 */
export async function pausePayouts(db: Db, doubts: readonly PayoutDoubt[], now: Date): Promise<PayoutPause> {
  return db.transaction(async (tx) => {
    const [opened] = await queryRows(
      tx,
      sql`INSERT INTO payout_pauses (causes, paused_at) VALUES (${JSON.stringify(doubts)}::jsonb, ${now.toISOString()}::timestamptz)
          ON CONFLICT ((resumed_at IS NULL)) WHERE resumed_at IS NULL DO NOTHING
          RETURNING ${pauseColumnsSql}`,
      pauseRow,
    );
    if (!opened) {
      const open = await openPause(tx);
      if (!open) throw new Error('payout pause neither opened nor open');
      return open;
    }
    const after = { causes: opened.causes };
    await recordAudit(tx, { at: now, actorAddress: null, actorRoles: [], via: 'system', action: 'payoutsPaused', target: opened.id.toString(), before: null, after, requestId: null, clientAddress: null });
    return opened;
  });
}

/**
 * Closes the open pause (the second operator's call of opsPayoutsResume), in the act's transaction.
 *
 * @param tx - the act's transaction, holding the pause's row (openPause with forUpdate)
 * @param input - the pause, who requested and who confirmed, when
 * @example
 * await closePause(tx, { id, requestedBy, confirmedBy, now });
 */
export async function closePause(tx: Db, input: { id: bigint; requestedBy: string; confirmedBy: string | null; now: Date }): Promise<void> {
  await tx.execute(
    sql`UPDATE payout_pauses SET resumed_at = ${input.now.toISOString()}::timestamptz, resumed_by = ${input.requestedBy}, confirmed_by = ${input.confirmedBy}
        WHERE id = ${input.id.toString()}::bigint AND resumed_at IS NULL`,
  );
}

/**
 * The pause as the contract shows it.
 *
 * @param pause - the pause
 * @returns id and time as strings, the causes
 * @example
 * const view = pauseView(pause);
 */
export function pauseView(pause: PayoutPause) {
  return { id: pause.id.toString(), pausedAt: pause.pausedAt.toISOString(), causes: pause.causes };
}

/** What the operators' approvals to resume a pause name (ops_approvals.target). */
export const pauseTarget = (id: bigint): string => `payoutPause:${id}`;

/**
 * The open pause as reconcile shows it, with the approvals to resume it so far.
 *
 * @param db - database handle
 * @returns the pause and its approvals, or null while payouts go on
 * @example
 * const pause = await openPauseView(db);
 */
export async function openPauseView(db: Db) {
  const pause = await openPause(db);
  if (!pause) return null;
  const approvals = await approvalsOf(db, 'payoutsResume', pauseTarget(pause.id));
  return { ...pauseView(pause), approvals: approvals.map((approval) => approval.operator) };
}

/**
 * Whether members' withdrawals wait, as this instance's payer saw it at its last round (every instance's payer reads
 * the journal and the pause, the lease holder or not): a pause's causes, and `journal` while the journal halts.
 *
 * @param payer - the payer's last view
 * @param now - the time, for a halt that has no start of its own
 * @returns since when and why, or undefined while payouts go on
 * @example
 * const withdrawalsPaused = payoutsPausedOf(payer, new Date());
 */
export function payoutsPausedOf(payer: { journal(): PayerJournal | undefined }, now: Date): { since: string; causes: PauseCause[] } | undefined {
  const journal = payer.journal();
  if (!journal) return undefined;
  const causes = new Set<PauseCause>(journal.pause?.causes.map((doubt) => doubt.cause) ?? []);
  if (journal.chainNonce > journal.knownNonce) causes.add('journal');
  if (causes.size === 0) return undefined;
  return { since: (journal.pause?.pausedAt ?? now).toISOString(), causes: [...causes] };
}
