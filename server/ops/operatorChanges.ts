/**
 * Four eyes on the operators (docs/API.md, "Operators"; docs/operations.md, "Operators"): an admin's put or remove at
 * the desk is a waiting change (operator_changes) until a second, different admin confirms it; the confirmation carries
 * it out with its audit row in the same transaction. While there is exactly one admin (a fresh install, right after
 * OPS_FIRST_ADMIN) that admin's change is done at once, or nobody could ever add the second. A change whose requester
 * is no admin any more no longer counts (server/ops/operators.ts cancels it with their removal or demotion), and any
 * admin may withdraw a waiting one. Everything here runs under the operators' lock, so of two admins confirming at once
 * one carries the change out and the other finds it done; the conditional UPDATE is a second guard.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { OperatorRole } from '../../api-schema/endpoint';
import type { Db } from '../db/client';
import { operatorChanges, operators } from '../db/schema';
import { AlreadyDecidedError, NotFoundError, RoleRequiredError, SelfActRefusedError } from '../errors';
import { recordAudit } from './audit';
import {
  adminCount,
  currentOperator,
  lockOperators,
  normalizedRoles,
  putOperatorLocked,
  removeOperatorLocked,
  type AuditContext,
  type OperatorRow,
} from './operators';

export type OperatorChangeKind = 'put' | 'remove';
export type OperatorChangeStatus = 'waiting' | 'done' | 'cancelled';

export interface OperatorChangeRow {
  id: string;
  kind: OperatorChangeKind;
  address: string;
  /** The roles a put sets; null for a remove. */
  roles: OperatorRole[] | null;
  requestedBy: string;
  requestedAt: Date;
  /** The requester themself when a sole admin's change was done at once. */
  confirmedBy: string | null;
  confirmedAt: Date | null;
  cancelledAt: Date | null;
}

/** A change, and what carrying it out did when this call did it. */
export interface OperatorChangeOutcome {
  change: OperatorChangeRow;
  /** A put carried out: the operator as stored. */
  operator?: OperatorRow;
  /** A remove carried out: what ended with the operator. */
  removed?: { sessionsEnded: number; keysRevoked: number };
}

/** What an admin asks for: set roles (add), or remove. */
export type OperatorChangeRequest = { kind: 'put'; address: string; roles: readonly OperatorRole[] } | { kind: 'remove'; address: string };

const columns = {
  id: operatorChanges.id,
  kind: operatorChanges.kind,
  address: operatorChanges.address,
  roles: operatorChanges.roles,
  requestedBy: operatorChanges.requestedBy,
  requestedAt: operatorChanges.requestedAt,
  confirmedBy: operatorChanges.confirmedBy,
  confirmedAt: operatorChanges.confirmedAt,
  cancelledAt: operatorChanges.cancelledAt,
};

type StoredChange = Omit<OperatorChangeRow, 'id' | 'kind' | 'roles'> & { id: bigint; kind: string; roles: string[] | null };

function rowOf(row: StoredChange): OperatorChangeRow {
  return { ...row, id: row.id.toString(), kind: row.kind === 'put' ? 'put' : 'remove', roles: row.roles === null ? null : (row.roles as OperatorRole[]) };
}

/**
 * Where a change stands.
 *
 * @example
 * statusOf({ confirmedAt: null, cancelledAt: null }); // 'waiting'
 */
export function statusOf(change: Pick<OperatorChangeRow, 'confirmedAt' | 'cancelledAt'>): OperatorChangeStatus {
  if (change.cancelledAt !== null) return 'cancelled';
  return change.confirmedAt === null ? 'waiting' : 'done';
}

/** The acting admin's address, checked under the lock: a current admin signed in as themself, else 1006. */
async function currentAdmin(tx: Db, audit: AuditContext): Promise<string> {
  const address = audit.actorAddress;
  if (address === null) throw new RoleRequiredError();
  const operator = await currentOperator(tx, address);
  if (!operator?.roles.includes('admin')) throw new RoleRequiredError();
  return address;
}

/** Carries a change out (its row already says who confirmed it), writing the act's audit row. */
async function carryOut(tx: Db, change: OperatorChangeRow, audit: AuditContext, action: string): Promise<OperatorChangeOutcome> {
  if (change.roles !== null) {
    return { change, operator: await putOperatorLocked(tx, { address: change.address, roles: change.roles }, audit, action, change.id) };
  }
  return { change, removed: await removeOperatorLocked(tx, change.address, audit, action, change.id) };
}

/**
 * An admin's put or remove: a waiting change for a second admin, or done at once by a sole admin.
 *
 * @param db - database handle
 * @param request - what to change
 * @param audit - who asks (a signed-in admin), when, from where; the row's action is opsOperatorPut or opsOperatorRemove
 * @returns the change, and what it did when done at once
 * @throws RoleRequiredError (1006) when the actor is no current admin; NotFoundError (4004) for removing no current
 *   operator; InvalidParametersError (1001) when a sole admin's change would leave no admin
 * @example
 * const { change } = await requestOperatorChange(db, { kind: 'put', address, roles: ['finance'] }, auditContextOf(request, now));
 */
export async function requestOperatorChange(db: Db, request: OperatorChangeRequest, audit: AuditContext): Promise<OperatorChangeOutcome> {
  const action = request.kind === 'put' ? 'opsOperatorPut' : 'opsOperatorRemove';
  return db.transaction(async (tx) => {
    await lockOperators(tx);
    const requester = await currentAdmin(tx, audit);
    // The sole admin acts alone: otherwise nobody could ever add the second.
    const alone = (await adminCount(tx)) === 1;
    const before = await currentOperator(tx, request.address);
    if (request.kind === 'remove' && !before) throw new NotFoundError();
    const [row] = await tx
      .insert(operatorChanges)
      .values({
        kind: request.kind,
        address: request.address,
        roles: request.kind === 'put' ? normalizedRoles(request.roles) : null,
        requestedBy: requester,
        requestedAt: audit.at,
        confirmedBy: alone ? requester : null,
        confirmedAt: alone ? audit.at : null,
      })
      .returning(columns);
    if (!row) throw new Error('operator change not written');
    const change = rowOf(row);
    if (alone) return carryOut(tx, change, audit, action);
    await recordAudit(tx, { ...audit, action, target: request.address, before: before ?? null, after: { change } });
    return { change };
  });
}

async function changeForUpdate(tx: Db, id: bigint): Promise<OperatorChangeRow> {
  const [row] = await tx.select(columns).from(operatorChanges).where(eq(operatorChanges.id, id)).for('update');
  if (!row) throw new NotFoundError();
  return rowOf(row);
}

/**
 * A second admin's confirmation: the waiting change is carried out, once. The requester's own confirmation is
 * refused (1007, as every act's own confirmation under the operators' policy; it stays waiting); a done one is
 * answered as it is.
 *
 * @param db - database handle
 * @param id - the change
 * @param audit - who confirms (a signed-in admin), when, from where; the row's action is opsOperatorConfirm
 * @returns the change, and what it did when this call carried it out
 * @throws NotFoundError (4004) for no such change, or removing one who is no operator now; AlreadyDecidedError (3006)
 *   for a cancelled one; RoleRequiredError (1006) when the actor is no current admin; SelfActRefusedError (1007) for
 *   its requester; InvalidParametersError (1001)
 *   when it would leave no admin (it stays waiting)
 * @example
 * const { change, operator } = await confirmOperatorChange(db, 7n, auditContextOf(request, now));
 */
export async function confirmOperatorChange(db: Db, id: bigint, audit: AuditContext): Promise<OperatorChangeOutcome> {
  return db.transaction(async (tx) => {
    await lockOperators(tx);
    const confirmer = await currentAdmin(tx, audit);
    const change = await changeForUpdate(tx, id);
    const status = statusOf(change);
    if (status === 'cancelled') throw new AlreadyDecidedError();
    if (status === 'done') return { change };
    if (change.requestedBy === confirmer) throw new SelfActRefusedError();
    // Its requester's removal or demotion cancels it; a requester who is no admin any more never counts.
    if (!(await currentOperator(tx, change.requestedBy))?.roles.includes('admin')) throw new AlreadyDecidedError();
    const [row] = await tx
      .update(operatorChanges)
      .set({ confirmedBy: confirmer, confirmedAt: audit.at })
      .where(and(eq(operatorChanges.id, id), isNull(operatorChanges.confirmedAt), isNull(operatorChanges.cancelledAt)))
      .returning(columns);
    if (!row) return { change: await changeForUpdate(tx, id) };
    return carryOut(tx, rowOf(row), audit, 'opsOperatorConfirm');
  });
}

/**
 * Withdraws a waiting change (any admin, its requester too); cancelling again answers it as it is.
 *
 * @param db - database handle
 * @param id - the change
 * @param audit - who withdraws it (a signed-in admin), when, from where; the row's action is opsOperatorCancel
 * @returns the change
 * @throws NotFoundError (4004); AlreadyDecidedError (3006) for a done one; RoleRequiredError (1006)
 * @example
 * await cancelOperatorChange(db, 7n, auditContextOf(request, now));
 */
export async function cancelOperatorChange(db: Db, id: bigint, audit: AuditContext): Promise<OperatorChangeRow> {
  return db.transaction(async (tx) => {
    await lockOperators(tx);
    await currentAdmin(tx, audit);
    const before = await changeForUpdate(tx, id);
    const status = statusOf(before);
    if (status === 'done') throw new AlreadyDecidedError();
    if (status === 'cancelled') return before;
    const [row] = await tx.update(operatorChanges).set({ cancelledAt: audit.at }).where(eq(operatorChanges.id, id)).returning(columns);
    if (!row) throw new Error('operator change not cancelled');
    const after = rowOf(row);
    await recordAudit(tx, { ...audit, action: 'opsOperatorCancel', target: after.address, before, after });
    return after;
  });
}

/**
 * The changes waiting for a second admin, oldest first: only those whose requester is still an admin count.
 *
 * @param db - database handle
 * @returns the waiting changes
 * @example
 * const waiting = await listWaitingChanges(db);
 */
export async function listWaitingChanges(db: Db): Promise<OperatorChangeRow[]> {
  const rows = await db
    .select(columns)
    .from(operatorChanges)
    .innerJoin(operators, eq(operators.address, operatorChanges.requestedBy))
    .where(and(isNull(operatorChanges.confirmedAt), isNull(operatorChanges.cancelledAt), isNull(operators.removedAt), sql`'admin' = ANY(${operators.roles})`))
    .orderBy(asc(operatorChanges.id));
  return rows.map(rowOf);
}
