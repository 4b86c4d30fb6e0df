/**
 * The payer's journal on the desk (docs/API.md, "Credit on chain: the payer's journal"), role finance: the recovery
 * from the chain (server/chain/payer/recovery.ts) and the settling of the unknown payments it finds
 * (server/chain/unknownPayments.ts), each under the operators' policy, at most once per request id of the operator,
 * with its audit row in its transaction.
 */
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '../../api-schema/endpoints';
import { recordScan, scanChain } from '../chain/payer/recovery';
import { settleUnknownPayment } from '../chain/unknownPayments';
import { NotFoundError } from '../errors';
import { requireOperator } from '../ops/actor';
import { runOperatorAct } from '../ops/operatorAct';
import { decidePolicy } from '../ops/policy';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/**
 * The payer's journal routes.
 *
 * @param app - plugin scope
 * @param deps - database, clock, policy, chain and payer
 * @returns when registered
 * @example
 * await app.register(opsPayerRoutes, deps);
 */
export const opsPayerRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    opsPaymentsRecover: async ({ body, request }) => {
      const chain = deps.chain?.chain;
      const payer = deps.chain?.payer;
      if (!chain || !payer) throw new NotFoundError();
      const actor = requireOperator(request);
      const now = deps.now();
      await deps.db.transaction((tx) => decidePolicy(tx, deps.policy, { act: 'paymentsRecover', actor, amount: 0n }, now));
      // The chain is read first, outside the database's transaction; recordScan refuses it (3005) if another run
      // recorded meanwhile.
      const scan = await scanChain(deps.db, chain, payer.address);
      const act = { action: 'opsPaymentsRecover', requestId: body.requestId, body: {}, now };
      return runOperatorAct(deps.db, request, act, endpoints.opsPaymentsRecover.result, async (tx) => {
        const outcome = await recordScan(tx, chain, payer.address, scan, { operator: actor.address, now });
        return { result: outcome, audit: { target: payer.address, after: outcome } };
      });
    },

    opsUnknownPaymentSettle: async ({ body, request }) => {
      const { requestId, ...fields } = body;
      const actor = requireOperator(request);
      const now = deps.now();
      const act = { action: 'opsUnknownPaymentSettle', requestId, body: fields, now };
      return runOperatorAct(deps.db, request, act, endpoints.opsUnknownPaymentSettle.result, async (tx) => {
        const settled = await settleUnknownPayment(tx, deps.policy, { hash: body.hash, settlement: body.settlement, reason: body.reason, now }, actor);
        const result = { payment: settled.payment, waitsForSecondApproval: settled.waitsForSecondApproval, approvals: settled.approvals };
        const audit = settled.changed ? { target: body.hash, after: { settlement: body.settlement, reason: body.reason, amount: settled.payment.amount, ...result } } : null;
        return { result, audit };
      });
    },
  });
};
