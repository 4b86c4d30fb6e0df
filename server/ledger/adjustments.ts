/**
 * Operators' grants and deductions with a reason (docs/API.md, "Operators: finance calls"), as requests of the ledger
 * engine. Each adjustment is a two-phase transfer (ledger_pending) whose id is the adjustment's: at or below
 * APPROVAL_QUORUM_ABOVE it is reserved straight as `posted` with its leg, so it moves at once; above, it is reserved
 * `waiting` with no leg (nothing moves) and a second, different operator's confirmation moves it waiting → posted
 * with its leg, once (the stage allows one move; a confirmation the balance does not cover is refused with 3001 and
 * leaves it waiting). The request is at most once per requestId (scope `ops`). A grant comes from issuance and a
 * deduction goes back to it, both as `reward` records of the member (a deduction's amount is negative); a deduction
 * never takes a balance below zero (3001).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import { bigintText, queryRows, type Db } from '../db/client';
import { AlreadyDecidedError, errorOfApiCode, NotFoundError, RoleRequiredError } from '../errors';
import type { OperatorActor } from '../ops/actor';
import { systemAccountId, type Asset } from './accounts';
import type { LedgerDesk, LedgerRequest, Leg } from './engine';

/** The adjustment's stages as its pending transfer keeps them. */
const Stage = { waiting: 'waiting', posted: 'posted' } as const;

export interface AdjustmentView {
  id: string;
  address: string;
  asset: Asset;
  /** Signed: a grant > 0, a deduction < 0. */
  amount: string;
  reason: string;
  status: 'waiting' | 'done';
  requestedBy: string | null;
  requestedAt: string;
  confirmedBy?: string;
  confirmedAt?: string;
}

/** Signed minor units as the API writes them. */
const signedText = (amount: bigint) => (amount < 0n ? `-${formatMinor(-amount)}` : formatMinor(amount));

/** The leg of an adjustment: issuance → member for a grant, member → issuance for a deduction. */
function legOf(memberId: number, asset: Asset, amount: bigint): Leg {
  const issuance = { system: systemAccountId(asset, 'issuance') };
  const member = { member: memberId };
  return amount > 0n
    ? { asset, type: 'reward', from: issuance, to: member, amount }
    : { asset, type: 'reward', from: member, to: issuance, amount: -amount };
}

const abs = (amount: bigint) => (amount < 0n ? -amount : amount);

/**
 * Whether an adjustment needs a second operator's confirmation.
 *
 * @param amount - signed minor units
 * @param quorumAbove - APPROVAL_QUORUM_ABOVE in minor units
 * @returns true above the threshold
 * @example
 * needsConfirmation(-2_000_000_000n, 1_000_000_000n); // true
 */
export function needsConfirmation(amount: bigint, quorumAbove: bigint): boolean {
  return abs(amount) > quorumAbove;
}

export interface AdjustmentInput {
  /** The member (undefined: no member has the address, 4004). */
  memberId: number | undefined;
  address: string;
  asset: Asset;
  /** Signed minor units, not 0. */
  amount: bigint;
  reason: string;
  requestId: string;
  /** The requesting operator's address (null: the bootstrap ADMIN_TOKEN). */
  by: string | null;
  now: Date;
}

/**
 * An adjustment as the engine's request.
 *
 * @param input - member, asset, signed amount, reason, request id, operator, time
 * @param quorumAbove - APPROVAL_QUORUM_ABOVE in minor units
 * @returns the ledger request (4004 for no member, 3001 for a deduction the balance does not cover)
 * @example
 * await desk.post(() => adjustmentRequest(input, quorumAbove), now);
 */
export function adjustmentRequest(input: AdjustmentInput, quorumAbove: bigint): LedgerRequest {
  const { memberId, address, asset, amount, reason, requestId, by, now } = input;
  const waits = needsConfirmation(amount, quorumAbove);
  const member = memberId ?? 0;
  return {
    key: { scope: 'ops', endpoint: 'opsAdjust', requestId, body: { address, asset, amount: signedText(amount), reason } },
    now,
    reject: memberId === undefined ? ApiCode.notFound : undefined,
    legs: waits ? [] : [legOf(member, asset, amount)],
    pending: { reserve: waits ? Stage.waiting : Stage.posted },
    record: {
      table: 'ops_adjustments',
      row: { member_id: member, asset, amount, reason, request_id: requestId, requested_by: by, created_at: now },
    },
    result: { id: '$record' },
  };
}

const adjustmentRow = z.object({
  id: bigintText,
  memberId: z.number().int(),
  address: z.string(),
  asset: z.enum(['CREDIT', 'WPOS']),
  amount: bigintText,
  reason: z.string(),
  stage: z.string(),
  requestedBy: z.string().nullable(),
  requestedAt: z.coerce.date(),
  confirmedBy: z.string().nullable(),
  confirmedAt: z.coerce.date().nullable(),
});

const adjustmentColumns = sql`SELECT a.id, a.member_id AS "memberId", m.address, a.asset, a.amount, a.reason, d.stage, a.requested_by AS "requestedBy",
          a.created_at AS "requestedAt", c.confirmed_by AS "confirmedBy", c.created_at AS "confirmedAt"
        FROM ops_adjustments a JOIN members m ON m.id = a.member_id JOIN ledger_pending d ON d.id = a.id
          LEFT JOIN ops_adjustment_confirmations c ON c.adjustment_id = a.id`;

async function readRow(db: Db, id: bigint): Promise<z.infer<typeof adjustmentRow> | undefined> {
  const [row] = await queryRows(db, sql`${adjustmentColumns} WHERE a.id = ${id.toString()}::bigint`, adjustmentRow);
  return row;
}

function viewOf(row: z.infer<typeof adjustmentRow>): AdjustmentView {
  return {
    id: row.id.toString(),
    address: row.address,
    asset: row.asset,
    amount: signedText(row.amount),
    reason: row.reason,
    status: row.stage === Stage.waiting ? 'waiting' : 'done',
    requestedBy: row.requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    ...(row.confirmedBy === null ? {} : { confirmedBy: row.confirmedBy }),
    ...(row.confirmedAt === null ? {} : { confirmedAt: row.confirmedAt.toISOString() }),
  };
}

/**
 * One adjustment.
 *
 * @param db - database handle
 * @param id - the adjustment
 * @returns the view, or undefined
 * @example
 * const view = await readAdjustment(db, 12n);
 */
export async function readAdjustment(db: Db, id: bigint): Promise<AdjustmentView | undefined> {
  const row = await readRow(db, id);
  return row ? viewOf(row) : undefined;
}

/**
 * The adjustments waiting for a second operator's confirmation, oldest first, a page at a time.
 *
 * @param db - database handle
 * @param page - after this id (the previous page's last), at most `limit`
 * @returns the page and the cursor of the next one (null: no more)
 * @example
 * const { list, nextCursor } = await listWaitingAdjustments(db, { limit: 50 });
 */
export async function listWaitingAdjustments(db: Db, page: { cursor?: bigint | undefined; limit: number }): Promise<{ list: AdjustmentView[]; nextCursor: string | null }> {
  const after = page.cursor === undefined ? sql`` : sql` AND a.id > ${page.cursor.toString()}::bigint`;
  const rows = await queryRows(db, sql`${adjustmentColumns} WHERE d.stage = ${Stage.waiting}${after} ORDER BY a.id LIMIT ${page.limit + 1}`, adjustmentRow);
  const list = rows.slice(0, page.limit).map(viewOf);
  return { list, nextCursor: rows.length > page.limit ? (list.at(-1)?.id ?? null) : null };
}

const idResult = z.object({ id: z.union([z.string(), z.number()]) });

/**
 * Grants or deducts, at most once per request id: done at once at or below the threshold, else waiting.
 *
 * @param deps - database, desk, the threshold
 * @param input - the adjustment
 * @param actor - the operator
 * @returns the adjustment
 * @throws RoleRequiredError (1006) above the threshold from the bootstrap ADMIN_TOKEN (nobody in particular cannot
 *   be the first of two operators), NotFoundError (4004), InsufficientBalanceError (3001), RequestIdReusedError (3003),
 *   RequestInProgressError (3005)
 * @example
 * const adjustment = await adjust({ db, desk, quorumAbove }, input, actor);
 */
export async function adjust(deps: { db: Db; desk: LedgerDesk; quorumAbove: bigint }, input: AdjustmentInput, actor: Pick<OperatorActor, 'address'>): Promise<AdjustmentView> {
  if (needsConfirmation(input.amount, deps.quorumAbove) && actor.address === null) throw new RoleRequiredError();
  const outcome = await deps.desk.post(() => adjustmentRequest(input, deps.quorumAbove), input.now);
  if (outcome.code !== ApiCode.ok) throw errorOfApiCode(outcome.code as ApiCodeValue);
  const view = await readAdjustment(deps.db, BigInt(idResult.parse(outcome.result).id));
  if (!view) throw new Error('an adjustment the engine wrote is not there');
  return view;
}

/**
 * A second operator's confirmation of a waiting adjustment: it moves once. Its requester counts once (it stays
 * waiting); a confirmed one is answered as it is.
 *
 * @param deps - database and desk
 * @param input - the adjustment, the operator, time
 * @returns the adjustment now
 * @throws NotFoundError (4004), RoleRequiredError (1006) for the bootstrap ADMIN_TOKEN, InsufficientBalanceError
 *   (3001) when the balance no longer covers a deduction (it stays waiting)
 * @example
 * const adjustment = await confirmAdjustment({ db, desk }, { id: 12n, actor, now });
 */
export async function confirmAdjustment(
  deps: { db: Db; desk: LedgerDesk },
  input: { id: bigint; actor: Pick<OperatorActor, 'address'>; now: Date },
): Promise<AdjustmentView> {
  const { id, actor, now } = input;
  const row = await readRow(deps.db, id);
  if (!row) throw new NotFoundError();
  if (row.stage !== Stage.waiting) return viewOf(row);
  if (actor.address === null) throw new RoleRequiredError();
  if (actor.address === row.requestedBy) return viewOf(row);
  const confirmedBy = actor.address;
  const outcome = await deps.desk.post(
    () => ({
      now,
      legs: [legOf(row.memberId, row.asset, row.amount)],
      pending: { id, from: [Stage.waiting], to: Stage.posted },
      record: { table: 'ops_adjustment_confirmations', row: { adjustment_id: id, confirmed_by: confirmedBy, created_at: now } },
    }),
    now,
  );
  const after = await readRow(deps.db, id);
  if (!after) throw new NotFoundError();
  // Confirmed by this call, or by another operator's at the same time: done once either way.
  if (outcome.code === ApiCode.ok || (outcome.code === ApiCode.alreadyDecided && after.stage !== Stage.waiting)) return viewOf(after);
  if (outcome.code === ApiCode.alreadyDecided) throw new AlreadyDecidedError();
  throw errorOfApiCode(outcome.code as ApiCodeValue);
}
