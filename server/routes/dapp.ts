/** Public data: dappParam, notices, about, bots (docs/API.md, "Public data"). */
import type { FastifyPluginAsync } from 'fastify';
import { getAppConfig } from '../config/appConfig';
import { listBots } from '../content/bots';
import { getAbout, getNotice, listNotices } from '../content/notices';
import { NotFoundError } from '../errors';
import { registerHandlers } from './endpoint';
import { announcedDomain, type RouteDeps } from './deps';
import { payoutsPausedOf } from '../chain/payer/pause';

/**
 * The public data routes.
 *
 * @param app - plugin scope
 * @param deps - database, clock and sign-in domain
 * @returns when registered
 * @example
 * await app.register(dappRoutes, deps);
 */
export const dappRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    dappParam: async ({ request }) => {
      const withdrawalsPaused = deps.chain?.payer ? payoutsPausedOf(deps.chain.payer, deps.now()) : undefined;
      return { ...(await getAppConfig(deps.db)), siweDomain: announcedDomain(deps, request), ...(withdrawalsPaused ? { withdrawalsPaused } : {}) };
    },

    queryPagePlatformNotice: async ({ query }) => listNotices(deps.db, query, deps.now()),

    noticeDetail: async ({ query }) => {
      const notice = await getNotice(deps.db, query.noticeId, query.lang, deps.now());
      if (!notice) throw new NotFoundError();
      return notice;
    },

    aboutOur: async ({ query }) => {
      const page = await getAbout(deps.db, query.lang);
      if (!page) throw new NotFoundError();
      return page;
    },

    solbotList: async ({ query }) => listBots(deps.db, query),
  });
};
