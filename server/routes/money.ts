/**
 * Members' money calls: creditRecord, wposRecord, withdrawCredit and topUp (docs/API.md, "Member" and "Money"). Every call that moves money
 * goes through the ledger batcher (server/ledger/engine.ts; ADR 0014): batched, at most once per request id.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { toMinor } from '../../api-schema/amount';
import { listCreditRecords, listWposRecords } from '../ledger/queries';
import { withdrawCredit } from '../ledger/withdrawals';
import { requireAuth } from '../plugins/access';
import { topUpStatus } from '../chain/topUpStatus';
import { NotFoundError, WithdrawalsFrozenError } from '../errors';
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
  // Each topUp may read the chain and run a watcher round: limited per member, wherever they call from.
  const perMember = { ...deps.rateLimits.topUp, keyGenerator: (request: FastifyRequest) => (request.auth ? `member:${request.auth.memberId}` : request.ip) };
  registerHandlers(app, {
    creditRecord: async ({ query, request }) => listCreditRecords(deps.db, { ...query, memberId: requireAuth(request).memberId }),

    wposRecord: async ({ query, request }) => listWposRecords(deps.db, { ...query, memberId: requireAuth(request).memberId }),

    withdrawCredit: async ({ body, request }) => {
      const { memberId, withdrawalsFrozen } = requireAuth(request);
      // A frozen member's withdrawal is refused before it is a request (3008, not kept as the request id's outcome):
      // the same request id works once an operator unfreezes them. The freeze was read with the token.
      if (withdrawalsFrozen) throw new WithdrawalsFrozenError();
      return withdrawCredit(deps.ledger, { memberId, amount: toMinor(body.amount), requestId: body.requestId, now: deps.now() }, deps.autoApproval);
    },

    topUp: async ({ body, request }) => {
      const { member } = requireAuth(request);
      if (!deps.chain) throw new NotFoundError();
      // Hashes compare as the node answers them, in lower case; an upper-case hash is the same transaction.
      return topUpStatus({ db: deps.db, ...deps.chain, address: member.address, txHash: body.txHash.toLowerCase() as `0x${string}` });
    },
  }, { topUp: { rateLimit: perMember } });
};
