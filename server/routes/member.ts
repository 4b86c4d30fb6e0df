/** Member area: meInfo, team and team search (docs/API.md, "Member"). */
import type { FastifyPluginAsync } from 'fastify';
import { InvalidParametersError } from '../errors';
import { checksummedAddress, toMeInfo } from '../members/members';
import { listTeam, parseTeamKeyword, searchTeam } from '../members/team';
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
export const memberRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    // The access hook read the member with the token, in the same statement (resolveToken).
    meInfo: async ({ request }) => toMeInfo(requireAuth(request).member),

    team: async ({ request, query }) => {
      const of = query.of === undefined ? undefined : checksummedAddress(query.of, 'of');
      return listTeam(deps.db, requireAuth(request).memberId, { ...query, of });
    },

    teamSearch: async ({ request, query }) => {
      // The contract's regex has already refused anything but 4 to 40 hex digits; this only takes it apart.
      const keyword = parseTeamKeyword(query.keyword);
      if (!keyword) throw new InvalidParametersError('keyword');
      return { list: await searchTeam(deps.db, requireAuth(request).memberId, keyword) };
    },
  });
};
