/**
 * WPOS area. Only the recipient list exists so far; transfers, profit and exchange come with the ledger.
 * It is also the first member-only endpoint, so the temporary-token rule (1003) is live.
 */
import type { FastifyPluginAsync } from 'fastify';
import { listDownlineAddresses } from '../members/members';
import { requireAuth } from '../plugins/access';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/**
 * The WPOS routes.
 *
 * @param app - plugin scope
 * @param deps - database
 * @returns when registered
 * @example
 * await app.register(wposRoutes, deps);
 */
export const wposRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    getRentValidBindMemberAddress: async ({ request }) => ({ list: await listDownlineAddresses(deps.db, requireAuth(request).memberId) }),
  });
};
