/** Member area: meInfo (API.md, "Member"). */
import type { FastifyPluginAsync } from 'fastify';
import { toMeInfo } from '../members/members';
import { requireAuth } from '../plugins/access';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/**
 * The member routes.
 *
 * @param app - plugin scope
 * @returns when registered
 * @example
 * await app.register(memberRoutes, deps);
 */
export const memberRoutes: FastifyPluginAsync<RouteDeps> = async (app) => {
  registerHandlers(app, {
    // The access hook read the member with the token, in the same statement (resolveToken).
    meInfo: async ({ request }) => toMeInfo(requireAuth(request).member),
  });
};
