/**
 * An operator's act with a request id (docs/API.md, "Operators: the policy"): at most once per (operator, endpoint,
 * requestId), so one operator's request id is never another's, and its audit row written by the act's own
 * transaction, so the act and its row commit together or not at all. A replay answers the first outcome and writes
 * nothing (server/ledger/idempotency.ts, runOnce); a refusal is rolled back with everything it wrote and stored as
 * the outcome.
 */
import type { FastifyRequest } from 'fastify';
import type * as zm from 'zod/mini';
import type { Db } from '../db/client';
import { runOnce } from '../ledger/idempotency';
import { requireOperator } from './actor';
import { auditOf, recordAudit, type AuditAct } from './audit';
import type { OperatorActStep } from './operatorActSteps';
import { actorKeyOf } from './policy';

export interface OperatorActRequest {
  /** The contract name of the call, the audit row's action. */
  action: string;
  /** The call's name before a rename (IdempotentRequest.formerEndpoint): its stored outcomes still answer. */
  formerAction?: string;
  requestId: string;
  /** The body as it counts for "same body" (requestId left out). */
  body: Record<string, unknown>;
  now: Date;
}

/**
 * Runs an operator's act once per request id of that operator, with its audit row in the same transaction.
 *
 * @param db - database handle (not a transaction)
 * @param request - the operator call
 * @param act - action, request id, canonical body, time
 * @param resultSchema - the endpoint's result schema (a replay's stored result is read back with it)
 * @param work - the act on the transaction: its result and what the audit row says (null: nothing changed, no row)
 * @returns the first outcome's result
 * @throws the stored refusal, RequestIdReusedError (3003), RequestInProgressError (3005), or the work's error
 * @example
 * return runOperatorAct(deps.db, request, { action: 'opsFund', requestId, body, now }, endpoints.opsFund.result, async (tx) => ...);
 */
export async function runOperatorAct<S extends zm.ZodMiniType>(
  db: Db,
  request: FastifyRequest,
  act: OperatorActRequest,
  resultSchema: S,
  work: (tx: Db) => Promise<{ result: zm.output<S>; audit: Omit<AuditAct, 'action' | 'requestId'> | null }>,
): Promise<zm.output<S>> {
  const actor = requireOperator(request);
  const once = { scope: `operator:${actorKeyOf(actor)}`, endpoint: act.action, requestId: act.requestId, body: act.body, now: act.now, ...(act.formerAction ? { formerEndpoint: act.formerAction } : {}) };
  return runOnce(db, once, resultSchema, async (tx) => {
    const { result, audit } = await work(tx);
    // Fault tests only (OPS_FAULT_AT=beforeAudit): the process dies here, the act's money written, its row not yet.
    request.server.operatorActStep?.('beforeAudit');
    if (audit) await recordAudit(tx, auditOf(request, act.now, { ...audit, action: act.action, requestId: act.requestId }));
    return result;
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Told of each step of an operator's act; only fault tests set it (BuildAppOptions.onOperatorActStep). */
    operatorActStep: ((step: OperatorActStep) => void) | null;
  }
}
