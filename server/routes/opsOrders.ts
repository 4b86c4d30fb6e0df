/**
 * The orders of the operators' desk (docs/API.md, "Operators: orders"), role support: the list, shipping and
 * cancelling with a refund (server/ops/orders.ts) under the operators' policy (a second operator above what one
 * refunds alone; never one's own order). Each act and its audit row commit in one transaction, the refund with them;
 * an act that changed nothing (the same shipment or cancellation again) writes no row.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { endpoints } from '../../api-schema/endpoints';
import type { Db } from '../db/client';
import { checksummedAddress } from '../members/members';
import { requireOperator } from '../ops/actor';
import { auditOf, recordAudit } from '../ops/audit';
import { runOperatorAct } from '../ops/operatorAct';
import { recordPolicyUse } from '../ops/policy';
import { decideWithSecondApproval, type SecondApproval } from '../ops/secondApprovals';
import { cancelOrder, listOpsOrders, shipOrder, type OrderChange } from '../ops/orders';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/**
 * The orders' routes (operator:support).
 *
 * @param app - plugin scope
 * @param deps - database, clock
 * @returns when registered
 * @example
 * await app.register(opsOrdersRoutes, deps);
 */
export const opsOrdersRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  /** The act's audit row, in the act's transaction, when it changed something. */
  async function audited(tx: Db, request: FastifyRequest, action: 'opsOrderShip', change: OrderChange, requestId?: string) {
    if (!change.changed) return change.after;
    const { before, after } = change;
    await recordAudit(tx, auditOf(request, deps.now(), { action, target: after.id, before: { status: before.status }, after: progressOf(after), requestId }));
    return after;
  }

  registerHandlers(app, {
    opsOrders: async ({ query }) =>
      listOpsOrders(deps.db, {
        status: query.status,
        address: query.address === undefined ? undefined : checksummedAddress(query.address, 'address'),
        cursor: query.cursor === undefined ? undefined : BigInt(query.cursor),
        limit: query.limit,
      }),

    opsOrderShip: async ({ body, request }) =>
      deps.db.transaction(async (tx) => {
        const change = await shipOrder(tx, { id: BigInt(body.id), carrier: body.carrier, trackingNumber: body.trackingNumber, now: deps.now() });
        return audited(tx, request, 'opsOrderShip', change);
      }),

    opsOrderCancel: async ({ body, request }) => {
      const { requestId, ...fields } = body;
      const now = deps.now();
      const actor = requireOperator(request);
      const act = { action: 'opsOrderCancel', requestId, body: fields, now };
      return runOperatorAct(deps.db, request, act, endpoints.opsOrderCancel.result, async (tx) => {
        let decision: SecondApproval | undefined;
        // The refund under the policy: alone within the operator's amounts, else it waits for a second operator's cancel.
        const change = await cancelOrder(tx, { id: BigInt(body.id), reason: body.reason, now }, async (order) => {
          const check = { act: 'orderRefund' as const, actor, amount: order.amount, member: { id: order.memberId, address: order.address } };
          decision = await decideWithSecondApproval(tx, deps.policy, { check, target: `order:${body.id}`, subject: 'refund', now });
          if (decision.proceed) await recordPolicyUse(tx, { act: 'orderRefund', operator: decision.requestedBy, memberId: order.memberId, amount: order.amount, confirmedBy: decision.confirmedBy, now });
          return decision.proceed ? 'proceed' : 'wait';
        });
        if (change.waiting) {
          const result = { ...change.after, waitsForSecondApproval: true, approvals: decision?.approvals ?? [] };
          return { result, audit: decision?.changed ? { target: change.after.id, before: { status: change.before.status }, after: { status: change.after.status, waitsForSecondApproval: true, approvals: result.approvals } } : null };
        }
        return { result: change.after, audit: change.changed ? { target: change.after.id, before: { status: change.before.status }, after: progressOf(change.after) } : null };
      });
    },
  });
};

/** What an act set, for the audit row. */
function progressOf(order: OrderChange['after']) {
  const { status, carrier, trackingNumber, shippedAt, cancelledAt, cancelReason, amount, quantity } = order;
  return { status, carrier, trackingNumber, shippedAt, cancelledAt, cancelReason, amount, quantity };
}
