/**
 * The orders of the operators' desk (docs/API.md, "Operators: orders"), role support: the list, shipping and
 * cancelling with a refund (server/ops/orders.ts). Each act and its audit row commit in one transaction, the refund
 * with them; an act that changed nothing (the same shipment or cancellation again) writes no row.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { endpoints } from '../../api-schema/endpoints';
import type { Db } from '../db/client';
import { runOnce } from '../ledger/idempotency';
import { checksummedAddress } from '../members/members';
import { auditOf, recordAudit } from '../ops/audit';
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
  async function audited(tx: Db, request: FastifyRequest, action: 'opsOrderShip' | 'opsOrderCancel', change: OrderChange, requestId?: string) {
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
      const once = { scope: 'ops', endpoint: 'opsOrderCancel', requestId, body: fields, now: deps.now() };
      return runOnce(deps.db, once, endpoints.opsOrderCancel.result, async (tx) => {
        const change = await cancelOrder(tx, { id: BigInt(body.id), reason: body.reason, now: deps.now() });
        return audited(tx, request, 'opsOrderCancel', change, requestId);
      });
    },
  });
};

/** What an act set, for the audit row. */
function progressOf(order: OrderChange['after']) {
  const { status, carrier, trackingNumber, shippedAt, cancelledAt, cancelReason, amount, quantity } = order;
  return { status, carrier, trackingNumber, shippedAt, cancelledAt, cancelReason, amount, quantity };
}
