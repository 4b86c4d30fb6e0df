/** Member area: meInfo (API.md, "Member"). */
import type { FastifyPluginAsync } from 'fastify';
import { NotSignedInError } from '../errors';
import { getMemberInfo } from '../members/members';
import { requireAuth } from '../plugins/access';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/**
 * The member routes.
 *
 * @param app - plugin scope
 * @param deps - database and clock
 * @returns when registered
 * @example
 * await app.register(memberRoutes, deps);
 */
export const memberRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    meInfo: async ({ request }) => {
      const info = await getMemberInfo(deps.db, requireAuth(request).memberId);
      // A valid token always has its member (tokens reference members); treat a miss as a dead session.
      if (!info) throw new NotSignedInError();
      return info;
    },
  });
};
