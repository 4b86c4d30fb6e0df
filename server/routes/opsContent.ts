/**
 * The content calls of the operators' desk (docs/API.md, "Operators: content"; role `content`): notices, the about
 * page, goods, share pools and bots. Each act and its audit row (before and after) commit in one transaction.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { NotFoundError } from '../errors';
import { requireOperator } from '../ops/actor';
import { auditOf, recordAudit } from '../ops/audit';
import { decidePolicy } from '../ops/policy';
import { listOpsBots, listOpsGoods, listOpsPools, putBot, putGoods, putPool } from '../content/opsCatalog';
import { listOpsNotices, publishNotice, putAbout, putNotice, readOpsAbout } from '../content/opsNotices';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/**
 * The content routes.
 *
 * @param app - plugin scope
 * @param deps - database and clock
 * @returns when registered
 * @example
 * await app.register(opsContentRoutes, deps);
 */
export const opsContentRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  /** Runs an act in a transaction with its audit row; answers what the act answers. */
  async function audited<T extends { before: unknown; after: unknown }>(
    request: FastifyRequest,
    action: string,
    target: string | null,
    act: (tx: Db) => Promise<T>,
  ): Promise<T> {
    return deps.db.transaction(async (tx) => {
      const outcome = await act(tx);
      await recordAudit(tx, auditOf(request, deps.now(), { action, target, before: outcome.before ?? null, after: outcome.after }));
      return outcome;
    });
  }

  registerHandlers(app, {
    opsNotices: async () => ({ list: await listOpsNotices(deps.db) }),

    opsNoticePut: async ({ body, request }) => {
      const { after, preview } = await audited(request, 'opsNoticePut', body.id, (tx) => putNotice(tx, body.id, body));
      return { ...after, preview };
    },

    opsNoticePublish: async ({ body, request }) => {
      const { after } = await audited(request, 'opsNoticePublish', body.id, async (tx) => {
        const change = await publishNotice(tx, body.id, body, deps.now());
        if (!change) throw new NotFoundError();
        return change;
      });
      return after;
    },

    opsAbout: async () => readOpsAbout(deps.db),

    opsAboutPut: async ({ body, request }) => {
      const { after, preview } = await audited(request, 'opsAboutPut', null, (tx) => putAbout(tx, body));
      return { ...after, preview };
    },

    opsGoods: async () => ({ list: await listOpsGoods(deps.db) }),

    opsGoodsPut: async ({ body, request }) => (await audited(request, 'opsGoodsPut', body.id, (tx) => putGoods(tx, body))).after,

    opsPools: async () => ({ list: await listOpsPools(deps.db) }),

    opsPoolPut: async ({ body, request }) => {
      // The target is the pool's id, known only after a creation: the audit row names it from `after`.
      return deps.db.transaction(async (tx) => {
        const { before, after } = await putPool(tx, body, async (totalAmount) => {
          await decidePolicy(tx, deps.policy, { act: 'poolAmount', actor: requireOperator(request), amount: totalAmount }, deps.now());
        });
        await recordAudit(tx, auditOf(request, deps.now(), { action: 'opsPoolPut', target: after.id, before: before ?? null, after }));
        return after;
      });
    },

    opsBots: async () => ({ list: await listOpsBots(deps.db) }),

    opsBotPut: async ({ body, request }) => (await audited(request, 'opsBotPut', body.id, (tx) => putBot(tx, body, deps.now()))).after,
  });
};
