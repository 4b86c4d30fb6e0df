/**
 * The buy flow (docs/API.md "Buy flow and shipping addresses"): goods, the member's shipping addresses, settlement through
 * the ledger batcher (batched, at most once per request id) and the member's orders.
 */
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '../../api-schema/endpoints';
import { addAddress, deleteAddress, editAddress, listAddresses } from '../buy/addresses';
import { goodsById, listGoods } from '../buy/goods';
import { listOrders, settlementRequest } from '../buy/orders';
import { InvalidParametersError, NotFoundError } from '../errors';
import { checkPhone } from '../../api-schema/address';
import { isValidInternationalNumber } from '../../api-schema/internationalPhone';
import { answerOf, runOnce } from '../ledger/idempotency';
import { requireAuth } from '../plugins/access';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/** The contract checks a +country number's shape; the server checks it is valid for its country (1001 `phone`). */
function withValidPhone<T extends { phone: string }>(body: T): T {
  if (checkPhone(body.phone, isValidInternationalNumber) !== null) throw new InvalidParametersError('phone');
  return body;
}

/**
 * The buy routes.
 *
 * @param app - plugin scope
 * @param deps - database, clock and the ledger batcher
 * @returns when registered
 * @example
 * await app.register(buyRoutes, deps);
 */
export const buyRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    goodsList: async ({ query }) => listGoods(deps.db, query),

    goodsDetail: async ({ query }) => {
      const goods = await goodsById(deps.db, query.id, query.lang);
      if (!goods) throw new NotFoundError();
      const { priceMinor: _price, ...item } = goods;
      return item;
    },

    deliveryList: async ({ request }) => listAddresses(deps.db, requireAuth(request).memberId),
    deliveryAdd: async ({ body, request }) => {
      const memberId = requireAuth(request).memberId;
      const { requestId, ...fields } = withValidPhone(body);
      if (requestId === undefined) return addAddress(deps.db, memberId, fields);
      // A save retried after its answer was lost adds the address once, and answers what the first one added.
      const once = { scope: `member:${memberId}`, endpoint: 'deliveryAdd', requestId, body: fields, now: deps.now() };
      return runOnce(deps.db, once, endpoints.deliveryAdd.result, (tx) => addAddress(tx, memberId, fields));
    },
    deliveryEdit: async ({ body, request }) => editAddress(deps.db, requireAuth(request).memberId, withValidPhone(body)),
    deliveryDelete: async ({ body, request }) => {
      await deleteAddress(deps.db, requireAuth(request).memberId, body.deliveryId);
      return {};
    },

    orderSettle: async ({ body, request }) => {
      const memberId = requireAuth(request).memberId;
      const { price, address } = await deps.settlementInputs.read({ memberId, goodsId: body.goodsId, deliveryId: body.deliveryId });
      const now = deps.now();
      const outcome = await deps.ledger.post(() => settlementRequest({ ...body, memberId, price, address, now }), now);
      return answerOf(outcome, endpoints.orderSettle.result);
    },

    orderList: async ({ query, request }) => listOrders(deps.db, { ...query, memberId: requireAuth(request).memberId }),
  });
};
