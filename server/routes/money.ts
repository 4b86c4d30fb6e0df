/**
 * Members' money calls: creditRecord, wposRecord and withdrawCredit (API.md, "Member" and "Money"). Every call that moves money
 * goes through the at-most-once mechanism of server/ledger/idempotency.ts (withdrawals batched: ADR 0012).
 */
import type { FastifyPluginAsync } from 'fastify';
import { toMinor } from '../../api-schema/amount';
import { listCreditRecords, listWposRecords } from '../ledger/queries';
import { requireAuth } from '../plugins/access';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/**
 * The members' money routes.
 *
 * @param app - plugin scope
 * @param deps - database and clock
 * @returns when registered
 * @example
 * await app.register(moneyRoutes, deps);
 */
export const moneyRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    creditRecord: async ({ query, request }) => listCreditRecords(deps.db, { ...query, memberId: requireAuth(request).memberId }),

    wposRecord: async ({ query, request }) => listWposRecords(deps.db, { ...query, memberId: requireAuth(request).memberId }),

    withdrawCredit: async ({ body, request }) =>
      deps.withdrawals.withdraw({ memberId: requireAuth(request).memberId, amount: toMinor(body.amount), requestId: body.requestId, now: deps.now() }),
  });
};
