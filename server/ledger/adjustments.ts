/**
 * Operators' grants and deductions with a reason (docs/API.md, "Operators: finance calls"), as requests of the ledger
 * engine, decided by the operators' policy (server/ops/policy.ts) in the act's transaction. Each adjustment is a
 * two-phase transfer (ledger_pending) whose id is the adjustment's: within what one operator may do alone it is
 * reserved straight as `posted` with its leg, so it moves at once; above, it is reserved `waiting` with no leg
 * (nothing moves) and a second operator's confirmation (not the requester, not the member) moves it waiting →
 * posted with its leg, once (the stage allows one move; a confirmation the balance does not cover is refused with
 * 3001 and leaves it waiting). A grant comes from issuance and a deduction goes back to it, both as `reward` records
 * of the member (a deduction's amount is negative); a deduction never takes a balance below zero (3001).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import { bigintText, queryRows, type Db } from '../db/client';
import { errorOfApiCode, NotFoundError } from '../errors';
import type { OperatorActor } from '../ops/actor';
import { currentOperator, isCurrentOperatorSql } from '../ops/operators';
import { actorKeyOf, confirmPolicy, decidePolicy, recordPolicyUse, type OperatorsPolicy, type PolicyAct } from '../ops/policy';
import { systemAccountId, type Asset } from './accounts';
import { postRequests, type LedgerRequest, type Leg } from './engine';

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

export interface AdjustmentInput {
  /** The member (undefined: no member has the address, 4004). */
  memberId: number | undefined;
  address: string;
  asset: Asset;
  /** Signed minor units, not 0. */
  amount: bigint;
  reason: string;
  requestId: string;
  /** The requesting operator's address (null only on rows the removed ADMIN_TOKEN wrote). */
  by: string | null;
  now: Date;
}

/** The policy's act of an adjustment: a grant or a deduction. */
export const adjustmentAct = (amount: bigint): PolicyAct => (amount > 0n ? 'grant' : 'deduct');

/**
 * An adjustment as the engine's request (no at-most-once key: the operator's act keeps it, server/ops/operatorAct.ts).
 *
 * @param input - member, asset, signed amount, reason, request id, operator, time
 * @param waits - the policy's verdict was 'confirm': reserve it waiting, nothing moves yet
 * @returns the ledger request (3001 for a deduction the balance does not cover)
 * @example
 * await postRequests(tx, [adjustmentRequest(input, false)]);
 */
export function adjustmentRequest(input: AdjustmentInput & { memberId: number }, waits: boolean): LedgerRequest {
  const { memberId, asset, amount, reason, requestId, by, now } = input;
  return {
    now,
    legs: waits ? [] : [legOf(memberId, asset, amount)],
    pending: { reserve: waits ? Stage.waiting : Stage.posted },
    record: {
      table: 'ops_adjustments',
      row: { member_id: memberId, asset, amount, reason, request_id: requestId, requested_by: by, created_at: now },
    },
    result: { id: '$record' },
    // A deduction is how finance takes back what a frozen member should not have.
    debitFrozen: amount < 0n,
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
  // A removed operator's request no longer counts: it is not shown, and a confirmation of it is 4004.
  const current = sql` AND ${isCurrentOperatorSql(sql.raw('a.requested_by'))}`;
  const rows = await queryRows(db, sql`${adjustmentColumns} WHERE d.stage = ${Stage.waiting}${current}${after} ORDER BY a.id LIMIT ${page.limit + 1}`, adjustmentRow);
  const list = rows.slice(0, page.limit).map(viewOf);
  return { list, nextCursor: rows.length > page.limit ? (list.at(-1)?.id ?? null) : null };
}

const idResult = z.object({ id: z.union([z.string(), z.number()]) });

/** The requesting operator's audit-free part of an adjustment's act. */
export interface AdjustmentDeps {
  policy: OperatorsPolicy;
}

/**
 * Grants or deducts in the act's transaction: alone within the policy (it moves at once and counts against the
 * totals), else reserved waiting for a second operator (nothing moves).
 *
 * @param tx - the operator act's transaction (runOperatorAct: at most once per request id, with the audit row)
 * @param deps - the operators' policy
 * @param input - the adjustment
 * @param actor - the requesting operator
 * @returns the adjustment
 * @throws NotFoundError (4004), RoleRequiredError (1006), SelfActRefusedError (1007), PolicyLimitError (3009),
 *   InsufficientBalanceError (3001)
 * @example
 * const adjustment = await adjust(tx, { policy }, input, actor);
 */
export async function adjust(tx: Db, deps: AdjustmentDeps, input: AdjustmentInput, actor: Pick<OperatorActor, 'address' | 'roles'>): Promise<AdjustmentView> {
  const { memberId } = input;
  if (memberId === undefined) throw new NotFoundError();
  const amount = abs(input.amount);
  const act = adjustmentAct(input.amount);
  const member = { id: memberId, address: input.address };
  const verdict = await decidePolicy(tx, deps.policy, { act, actor, amount, member }, input.now);
  const [outcome] = await postRequests(tx, [adjustmentRequest({ ...input, memberId }, verdict === 'confirm')]);
  if (outcome?.code !== ApiCode.ok) throw errorOfApiCode((outcome?.code ?? ApiCode.internal) as ApiCodeValue);
  if (verdict === 'alone') await recordPolicyUse(tx, { act, operator: actorKeyOf(actor), memberId, amount, now: input.now });
  const view = await readAdjustment(tx, BigInt(idResult.parse(outcome.result).id));
  if (!view) throw new Error('an adjustment the engine wrote is not there');
  return view;
}

/**
 * A second operator's confirmation of a waiting adjustment, in the act's transaction: it moves once, and counts
 * against the requester's totals with the confirming operator named. A confirmed one is answered as it is (changed:
 * false, no audit row).
 *
 * @param tx - the act's transaction (the audit row's)
 * @param deps - the operators' policy
 * @param input - the adjustment, the confirming operator, time
 * @returns the adjustment before and now, and whether this call moved it
 * @throws NotFoundError (4004; also when its requester is no longer an operator), RoleRequiredError (1006),
 *   SelfActRefusedError (1007: the requester, or the member themselves), InsufficientBalanceError (3001) when the
 *   balance no longer covers a deduction (it stays waiting)
 * @example
 * const { after } = await confirmAdjustment(tx, { policy }, { id: 12n, actor, now });
 */
export async function confirmAdjustment(
  tx: Db,
  deps: AdjustmentDeps,
  input: { id: bigint; actor: Pick<OperatorActor, 'address' | 'roles'>; now: Date },
): Promise<{ before: AdjustmentView; after: AdjustmentView; changed: boolean }> {
  const { id, actor, now } = input;
  // The pending transfer's row lock: two confirmations at once are decided one after the other.
  await tx.execute(sql`SELECT 1 FROM ledger_pending WHERE id = ${id.toString()}::bigint FOR UPDATE`);
  const row = await readRow(tx, id);
  if (!row) throw new NotFoundError();
  const before = viewOf(row);
  if (row.stage !== Stage.waiting) return { before, after: before, changed: false };
  // A removed operator's waiting request no longer counts.
  if (row.requestedBy === null || !(await currentOperator(tx, row.requestedBy))) throw new NotFoundError();
  const amount = abs(row.amount);
  const act = adjustmentAct(row.amount);
  confirmPolicy(deps.policy, { act, actor, amount, member: { id: row.memberId, address: row.address } }, row.requestedBy);
  const confirmedBy = actor.address;
  const [outcome] = await postRequests(tx, [
    {
      now,
      legs: [legOf(row.memberId, row.asset, row.amount)],
      pending: { id, from: [Stage.waiting], to: Stage.posted },
      record: { table: 'ops_adjustment_confirmations', row: { adjustment_id: id, confirmed_by: confirmedBy, created_at: now } },
      debitFrozen: row.amount < 0n,
    },
  ]);
  if (outcome?.code !== ApiCode.ok) throw errorOfApiCode((outcome?.code ?? ApiCode.internal) as ApiCodeValue);
  await recordPolicyUse(tx, { act, operator: row.requestedBy, memberId: row.memberId, amount, confirmedBy, now });
  const after = await readRow(tx, id);
  if (!after) throw new NotFoundError();
  return { before, after: viewOf(after), changed: true };
}
