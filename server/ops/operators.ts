/**
 * The operators and their roles (docs/API.md, "Operators"): add or change, remove (their sessions and keys end with
 * them), list; the last admin can be neither removed nor demoted. Each change writes its audit row in its own
 * transaction, under one advisory lock so two admins demoting each other cannot both succeed. An admin who stops being
 * one (removed or demoted) leaves their waiting operator changes cancelled in the same transaction: they no longer
 * count. The desk's calls wait for a second admin first (server/ops/operatorChanges.ts); the CLI's act at once.
 */
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { OperatorRole } from '../../api-schema/endpoint';
import { lockTransaction, type Db } from '../db/client';
import { operatorApiKeys, operatorChanges, operators, operatorSessions } from '../db/schema';
import { InvalidParametersError, NotFoundError } from '../errors';
import { recordAudit, type AuditEntry } from './audit';

/** Serialises changes to the operators (the last-admin rule reads all of them). */
const OPERATORS_LOCK = 4_361_000_043;

export interface OperatorRow {
  address: string;
  roles: OperatorRole[];
  addedAt: Date;
  addedBy: string | null;
}

/** An audit entry without its act: who, when, from where (auditOf's fields, or a CLI's). */
export type AuditContext = Omit<AuditEntry, 'action' | 'target' | 'before' | 'after'>;

const ROLE_ORDER: readonly OperatorRole[] = ['admin', 'finance', 'support', 'content'];

/** Roles in one order, each once, so stored and shown roles compare equal. */
export function normalizedRoles(roles: readonly OperatorRole[]): OperatorRole[] {
  return ROLE_ORDER.filter((role) => roles.includes(role));
}

const columns = { address: operators.address, roles: operators.roles, addedAt: operators.addedAt, addedBy: operators.addedBy };

function rowOf(row: { address: string; roles: string[]; addedAt: Date; addedBy: string | null }): OperatorRow {
  return { ...row, roles: row.roles as OperatorRole[] };
}

/**
 * The current operators, in the order they were added.
 *
 * @param db - database handle
 * @returns the operators
 * @example
 * const list = await listOperators(db);
 */
export async function listOperators(db: Db): Promise<OperatorRow[]> {
  const rows = await db.select(columns).from(operators).where(isNull(operators.removedAt)).orderBy(asc(operators.addedAt), asc(operators.address));
  return rows.map(rowOf);
}

/**
 * The current operator at an address, if any.
 *
 * @param db - database handle
 * @param address - EIP-55
 * @returns the operator or undefined
 * @example
 * const operator = await currentOperator(db, address);
 */
export async function currentOperator(db: Db, address: string): Promise<OperatorRow | undefined> {
  const [row] = await db.select(columns).from(operators).where(and(eq(operators.address, address), isNull(operators.removedAt)));
  return row ? rowOf(row) : undefined;
}

/**
 * SQL that holds when the address in `column` is a current operator (removal only dates the row: removed_at), for
 * queries that count only current operators' approvals and requests.
 *
 * @param column - the column holding the operator's address, e.g. sql.raw('a.operator')
 * @returns the predicate
 * @example
 * sql`SELECT ... FROM withdrawal_approvals a WHERE ${isCurrentOperatorSql(sql.raw('a.operator'))}`;
 */
export function isCurrentOperatorSql(column: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM operators o WHERE o.address = ${column} AND o.removed_at IS NULL)`;
}

/** The current admins but the one at `except`, when given. */
async function countAdmins(tx: Db, except?: string): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(operators)
    .where(and(isNull(operators.removedAt), sql`'admin' = ANY(${operators.roles})`, except === undefined ? undefined : sql`${operators.address} <> ${except}`));
  return row?.count ?? 0;
}

const otherAdmins = (tx: Db, address: string) => countAdmins(tx, address);

/**
 * Takes the operators' lock for the rest of a transaction: every change to the operators or their waiting changes
 * holds it, so the last-admin rule and a change's confirmation each read a settled set.
 *
 * @param tx - the transaction
 * @returns when held
 * @example
 * await db.transaction(async (tx) => { await lockOperators(tx); ... });
 */
export async function lockOperators(tx: Db): Promise<void> {
  await lockTransaction(tx, OPERATORS_LOCK);
}

/**
 * How many current operators hold admin.
 *
 * @param db - database or transaction handle (under lockOperators for a settled answer)
 * @returns the count
 * @example
 * const alone = (await adminCount(tx)) === 1;
 */
export async function adminCount(db: Db): Promise<number> {
  return countAdmins(db);
}

/** Ends the waiting changes of someone who is no admin any more: they no longer count. */
async function cancelChangesOf(tx: Db, address: string, at: Date): Promise<string[]> {
  const rows = await tx
    .update(operatorChanges)
    .set({ cancelledAt: at })
    .where(and(eq(operatorChanges.requestedBy, address), isNull(operatorChanges.confirmedAt), isNull(operatorChanges.cancelledAt)))
    .returning({ id: operatorChanges.id });
  return rows.map((row) => row.id.toString());
}

/** What the audit row's `after` adds: the change this act carries out, and the changes it cancelled. */
function auditAfter(after: object, changeId: string | undefined, changesCancelled: readonly string[]): object {
  return { ...after, ...(changeId === undefined ? {} : { changeId }), ...(changesCancelled.length === 0 ? {} : { changesCancelled }) };
}

/**
 * putOperator inside a transaction that holds lockOperators.
 *
 * @param tx - the transaction
 * @param change - the address (EIP-55) and roles
 * @param audit - who acts, when, from where
 * @param action - the audit row's action
 * @param changeId - the operator change this carries out, when one does
 * @returns the operator as stored
 * @throws InvalidParametersError('roles') when it would leave no admin
 * @example
 * await putOperatorLocked(tx, { address, roles: ['finance'] }, context, 'opsOperatorConfirm', '7');
 */
export async function putOperatorLocked(
  tx: Db,
  change: { address: string; roles: readonly OperatorRole[] },
  audit: AuditContext,
  action: string,
  changeId?: string,
): Promise<OperatorRow> {
  const roles = normalizedRoles(change.roles);
  const before = await currentOperator(tx, change.address);
  if (before?.roles.includes('admin') && !roles.includes('admin') && (await otherAdmins(tx, change.address)) === 0) {
    throw new InvalidParametersError('roles');
  }
  const [row] = await tx
    .insert(operators)
    .values({ address: change.address, roles, addedAt: audit.at, addedBy: audit.actorAddress })
    .onConflictDoUpdate({
      target: operators.address,
      set: {
        roles,
        // A removed operator added again starts afresh; a current one keeps when and by whom they were added.
        addedAt: sql`CASE WHEN ${operators.removedAt} IS NULL THEN ${operators.addedAt} ELSE excluded.added_at END`,
        addedBy: sql`CASE WHEN ${operators.removedAt} IS NULL THEN ${operators.addedBy} ELSE excluded.added_by END`,
        removedAt: null,
      },
    })
    .returning(columns);
  if (!row) throw new Error('operator not written');
  const after = rowOf(row);
  const changesCancelled = roles.includes('admin') ? [] : await cancelChangesOf(tx, change.address, audit.at);
  await recordAudit(tx, { ...audit, action, target: change.address, before: before ?? null, after: auditAfter(after, changeId, changesCancelled) });
  return after;
}

/**
 * Adds an operator or sets their roles (a removed one is added again), refusing to take admin from the last admin.
 *
 * @param db - database handle
 * @param change - the address (EIP-55) and roles
 * @param audit - who acts, when, from where; the row's action is `action` (default opsOperatorPut)
 * @returns the operator as stored
 * @throws InvalidParametersError('roles') when it would leave no admin
 * @example
 * await putOperator(db, { address, roles: ['finance'] }, auditContextOf(request, now));
 */
export async function putOperator(db: Db, change: { address: string; roles: readonly OperatorRole[] }, audit: AuditContext, action = 'opsOperatorPut'): Promise<OperatorRow> {
  return db.transaction(async (tx) => {
    await lockOperators(tx);
    return putOperatorLocked(tx, change, audit, action);
  });
}

/**
 * removeOperator inside a transaction that holds lockOperators.
 *
 * @param tx - the transaction
 * @param address - EIP-55
 * @param audit - who acts, when, from where
 * @param action - the audit row's action
 * @param changeId - the operator change this carries out, when one does
 * @returns how many sessions ended and keys were revoked
 * @throws NotFoundError when the address is no current operator; InvalidParametersError('address') for the last admin
 * @example
 * await removeOperatorLocked(tx, address, context, 'opsOperatorConfirm', '7');
 */
export async function removeOperatorLocked(
  tx: Db,
  address: string,
  audit: AuditContext,
  action: string,
  changeId?: string,
): Promise<{ sessionsEnded: number; keysRevoked: number }> {
  const before = await currentOperator(tx, address);
  if (!before) throw new NotFoundError();
  if (before.roles.includes('admin') && (await otherAdmins(tx, address)) === 0) throw new InvalidParametersError('address');
  await tx.update(operators).set({ removedAt: audit.at }).where(eq(operators.address, address));
  const sessions = await tx
    .update(operatorSessions)
    .set({ revokedAt: audit.at })
    .where(and(eq(operatorSessions.address, address), isNull(operatorSessions.revokedAt), sql`${operatorSessions.expiresAt} > ${audit.at}`))
    .returning({ hash: operatorSessions.hash });
  const keys = await tx
    .update(operatorApiKeys)
    .set({ revokedAt: audit.at })
    .where(and(eq(operatorApiKeys.createdBy, address), isNull(operatorApiKeys.revokedAt)))
    .returning({ id: operatorApiKeys.id });
  const result = { sessionsEnded: sessions.length, keysRevoked: keys.length };
  const changesCancelled = await cancelChangesOf(tx, address, audit.at);
  const after = { removed: true, ...result, keyIds: keys.map((key) => key.id) };
  await recordAudit(tx, { ...audit, action, target: address, before, after: auditAfter(after, changeId, changesCancelled) });
  return result;
}

/**
 * Removes an operator: ends their sessions and revokes their API keys in the same transaction.
 *
 * @param db - database handle
 * @param address - EIP-55
 * @param audit - who acts, when, from where
 * @returns how many sessions ended and keys were revoked
 * @throws NotFoundError when the address is no current operator; InvalidParametersError('address') for the last admin
 * @example
 * const { sessionsEnded, keysRevoked } = await removeOperator(db, address, auditContextOf(request, now));
 */
export async function removeOperator(db: Db, address: string, audit: AuditContext, action = 'opsOperatorRemove'): Promise<{ sessionsEnded: number; keysRevoked: number }> {
  return db.transaction(async (tx) => {
    await lockOperators(tx);
    return removeOperatorLocked(tx, address, audit, action);
  });
}

/**
 * Makes an address an admin when there is no admin yet (OPS_FIRST_ADMIN at start, the seed's demo operator).
 *
 * @param db - database handle
 * @param address - EIP-55
 * @param audit - the setting's or seed's context (no actor address)
 * @returns whether it was added
 * @example
 * await addFirstAdmin(db, env.OPS_FIRST_ADMIN, { at: new Date(), actorAddress: null, actorRoles: [], via: 'setting', ... });
 */
export async function addFirstAdmin(db: Db, address: string, audit: AuditContext, action = 'opsFirstAdmin'): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockOperators(tx);
    const [anyAdmin] = await tx.select({ address: operators.address }).from(operators).where(and(isNull(operators.removedAt), sql`'admin' = ANY(${operators.roles})`)).limit(1);
    if (anyAdmin) return false;
    const before = await currentOperator(tx, address);
    const roles = normalizedRoles(['admin', ...(before?.roles ?? [])]);
    await tx
      .insert(operators)
      .values({ address, roles, addedAt: audit.at, addedBy: null })
      .onConflictDoUpdate({ target: operators.address, set: { roles, removedAt: null, addedAt: audit.at, addedBy: null } });
    await recordAudit(tx, { ...audit, action, target: address, before: before ?? null, after: { address, roles } });
    return true;
  });
}
