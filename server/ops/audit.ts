/**
 * The audit log (docs/API.md, "Operators"): one row for every operator act that changes something, written with the
 * act in the same transaction where the act has one, so an act and its row commit or fail together. The table is
 * append-only in the database (migration 0019's trigger refuses UPDATE, DELETE and TRUNCATE; with an owner role of
 * its own, the app's role may only SELECT and INSERT it: server/db/roles.ts).
 *
 * In a route:
 *   await deps.db.transaction(async (tx) => {
 *     const before = await readIt(tx);
 *     const after = await changeIt(tx);
 *     await recordAudit(tx, auditOf(request, deps.now(), { action: 'opsMemberFreeze', target: address, before, after }));
 *   });
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import { requireOperator, type OperatorActor, type OperatorCredential } from './actor';

/** How the actor proved who they are: an operator credential, a start-up setting (OPS_FIRST_ADMIN), the seed, or none: the server's own act (an alert). */
export type AuditVia = OperatorCredential | 'setting' | 'seed' | 'system';

export interface AuditEntry {
  at: Date;
  /** Null for a setting, the CLI or the seed (and on rows of the removed ADMIN_TOKEN). */
  actorAddress: string | null;
  actorRoles: readonly string[];
  via: AuditVia;
  /** The contract name of the call (opsOperatorPut, adminGrant, ...), or the CLI's or setting's act. */
  action: string;
  /** What was acted on: an address, a withdrawal id, a key id; null when nothing in particular. */
  target: string | null;
  /** JSON; bigints are written as decimal strings. */
  before: unknown;
  after: unknown;
  requestId: string | null;
  clientAddress: string | null;
}

/** The act itself: what a route knows; auditOf fills in who, when and from where. */
export interface AuditAct {
  action: string;
  target?: string | bigint | null | undefined;
  before?: unknown;
  after?: unknown;
  /** The body's requestId when the call has one; else the X-Request-Id header, else the server's request id. */
  requestId?: string | undefined;
}

const REQUEST_ID_MAX = 200;

/** JSON as PostgreSQL stores it: bigints as decimal strings, undefined as null. */
function jsonOf(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))) as unknown;
}

/** The caller's X-Request-Id, when it is one short line. */
function requestIdHeader(request: FastifyRequest): string | undefined {
  const header = request.headers['x-request-id'];
  if (typeof header !== 'string' || header.length === 0 || header.length > REQUEST_ID_MAX) return undefined;
  return /^[\x21-\x7e]+$/.test(header) ? header : undefined;
}

/**
 * An audit entry for an act by the operator of a request.
 *
 * @param request - the operator call (the access hook has set request.operator)
 * @param at - when (deps.now())
 * @param act - action, target, before, after and the body's requestId if any
 * @param actor - the actor, when not the request's (default: requireOperator(request))
 * @returns the entry for recordAudit
 * @example
 * await recordAudit(tx, auditOf(request, deps.now(), { action: 'opsKeyRevoke', target: id, before, after }));
 */
export function auditOf(request: FastifyRequest, at: Date, act: AuditAct, actor: Pick<OperatorActor, 'address' | 'roles' | 'via'> = requireOperator(request)): AuditEntry {
  return {
    at,
    actorAddress: actor.address,
    actorRoles: actor.roles,
    via: actor.via,
    action: act.action,
    target: act.target === undefined || act.target === null ? null : String(act.target),
    before: act.before,
    after: act.after,
    requestId: act.requestId ?? requestIdHeader(request) ?? request.id,
    clientAddress: request.ip,
  };
}

/**
 * Who acts on a request, when and from where, without the act (for functions that write their own audit row).
 *
 * @param request - the call
 * @param at - when (deps.now())
 * @param actor - the actor (default: the request's operator)
 * @returns the entry's context
 * @example
 * await putOperator(db, change, auditContextOf(request, deps.now()));
 */
export function auditContextOf(
  request: FastifyRequest,
  at: Date,
  actor: Pick<OperatorActor, 'address' | 'roles' | 'via'> = requireOperator(request),
): Omit<AuditEntry, 'action' | 'target' | 'before' | 'after'> {
  const { action: _action, target: _target, before: _before, after: _after, ...context } = auditOf(request, at, { action: '' }, actor);
  return context;
}

/**
 * Appends one row to the audit log; pass the act's transaction so both commit together.
 *
 * @param db - database or transaction handle
 * @param entry - the row (auditOf builds it from a request)
 * @returns the row's id
 * @example
 * await recordAudit(tx, auditOf(request, now, { action: 'opsOperatorRemove', target: address, before }));
 */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<bigint> {
  const [row] = await db
    .insert(auditLog)
    .values({
      at: entry.at,
      actorAddress: entry.actorAddress,
      actorRoles: [...entry.actorRoles],
      via: entry.via,
      action: entry.action,
      target: entry.target,
      before: jsonOf(entry.before),
      after: jsonOf(entry.after),
      requestId: entry.requestId,
      clientAddress: entry.clientAddress,
    })
    .returning({ id: auditLog.id });
  if (!row) throw new Error('audit row not written');
  return row.id;
}
