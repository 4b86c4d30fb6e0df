/**
 * The WPOS area (docs/API.md "WPOS"): the recipients a member may pay, transfers and the flash exchange through the
 * ledger batcher (batched, at most once per request id; ADR 0014), the share pools and the profit they paid.
 * wposRecord is with the other records in money.ts.
 */
import type { FastifyPluginAsync } from 'fastify';
import { toMinor } from '../../api-schema/amount';
import { endpoints } from '../../api-schema/endpoints';
import { exchangeRequest } from '../ledger/exchange';
import { answerOf } from '../ledger/idempotency';
import { memberTransferRequest } from '../ledger/memberTransfers';
import { listWposProfit } from '../ledger/queries';
import { sharePoolsOf } from '../ledger/sharePools';
import { checksummedAddress, listDownlineAddresses, transferRecipient } from '../members/members';
import { requireAuth } from '../plugins/access';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/**
 * The WPOS routes.
 *
 * @param app - plugin scope
 * @param deps - database, clock and the ledger batcher
 * @returns when registered
 * @example
 * await app.register(wposRoutes, deps);
 */
export const wposRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    getRentValidBindMemberAddress: async ({ request }) => ({ list: await listDownlineAddresses(deps.db, requireAuth(request).memberId) }),

    transferWpos: async ({ body, request }) => {
      const fromMemberId = requireAuth(request).memberId;
      const recipient = await transferRecipient(deps.db, fromMemberId, checksummedAddress(body.toAddress, 'toAddress'));
      const now = deps.now();
      const outcome = await deps.ledger.post(
        (config) =>
          memberTransferRequest({
            endpoint: 'transferWpos',
            asset: 'WPOS',
            fromMemberId,
            // A stranger has no member id; 0 is no member's, and the request is refused before its legs are read.
            toMemberId: recipient.memberId ?? 0,
            amount: toMinor(body.amount),
            minimum: toMinor(config.minTransfer),
            recipientAllowed: recipient.allowed,
            requestId: body.requestId,
            now,
          }),
        now,
      );
      return answerOf(outcome, endpoints.transferWpos.result);
    },

    flashExchange: async ({ body, request }) => {
      const memberId = requireAuth(request).memberId;
      const now = deps.now();
      const outcome = await deps.ledger.post(
        (config) => exchangeRequest({ memberId, from: body.from, amount: toMinor(body.amount), requestId: body.requestId, now }, config),
        now,
      );
      return answerOf(outcome, endpoints.flashExchange.result);
    },

    getSharePools: async ({ request }) => sharePoolsOf(deps.db, requireAuth(request).memberId, deps.now()),

    wposProfit: async ({ query, request }) => listWposProfit(deps.db, { ...query, memberId: requireAuth(request).memberId, now: deps.now() }),
  });
};
