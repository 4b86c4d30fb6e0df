/**
 * Members' money calls: creditRecord, wposRecord and withdrawCredit (API.md, "Member" and "Money"). Every call that moves money
 * goes through runOnce (server/ledger/idempotency.ts): at most once per requestId.
 */
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '../../api-schema/endpoints';
import { runOnce } from '../ledger/idempotency';
import { formatMinor, parseAmount } from '../ledger/money';
import { listCreditRecords, listWposRecords } from '../ledger/queries';
import { withdrawCredit } from '../ledger/withdrawals';
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

    withdrawCredit: async ({ body, request }) => {
      const { memberId } = requireAuth(request);
      const amount = parseAmount(body.amount);
      const now = deps.now();
      // "Same body" compares the amount's value: "20" and "20.0" are one request.
      const idempotent = { scope: `member:${memberId}`, endpoint: 'withdrawCredit', requestId: body.requestId, body: { amount: formatMinor(amount) }, now };
      return runOnce(deps.db, idempotent, endpoints.withdrawCredit.result, (tx) => withdrawCredit(tx, { memberId, amount, now }));
    },
  });
};
