/**
 * The payer's journal on the desk (docs/API.md, "Credit on chain: the payer's journal"), role finance: the recovery
 * from the chain (server/chain/payer/recovery.ts), the settling of the unknown payments it finds
 * (server/chain/unknownPayments.ts) and the resuming of payouts paused on doubt (server/chain/payer/pause.ts), each
 * under the operators' policy, at most once per request id of the operator, with its audit row in its transaction.
 */
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '../../api-schema/endpoints';
import { closePause, openPause, pauseExists, pauseTarget, pauseView, staleDoubt } from '../chain/payer/pause';
import { recordScan, scanChain } from '../chain/payer/recovery';
import { reconcile } from '../chain/reconcile';
import { storeReconcileRun } from '../chain/reconcileSchedule';
import { settleUnknownPayment } from '../chain/unknownPayments';
import { AlreadyDecidedError, NotFoundError, PayoutsDoubtError } from '../errors';
import { requireOperator } from '../ops/actor';
import { runOperatorAct } from '../ops/operatorAct';
import { decidePolicy } from '../ops/policy';
import { decideWithSecondApproval } from '../ops/secondApprovals';
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

    opsPayoutsResume: async ({ body, request }) => {
      const chain = deps.chain?.chain;
      const payer = deps.chain?.payer;
      if (!chain || !payer) throw new NotFoundError();
      const actor = requireOperator(request);
      const now = deps.now();
      // The doubt is judged afresh, outside the act's transaction (it reads the chain): a new reconcile, stored as
      // the newest verdict, and the head's age. A doubt that comes back later pauses payouts again at the next round.
      const [fresh, head] = await Promise.all([reconcile(deps.db, chain, payer, now), chain.client.getBlock({ blockTag: 'latest' })]);
      await storeReconcileRun(deps.db, fresh, now);
      if (!fresh.ok || staleDoubt(Number(head.timestamp), now, payer.chainStaleSeconds)) throw new PayoutsDoubtError();
      const { requestId, ...fields } = body;
      const act = { action: 'opsPayoutsResume', requestId, body: fields, now };
      return runOperatorAct(deps.db, request, act, endpoints.opsPayoutsResume.result, async (tx) => {
        const pause = await openPause(tx, { forUpdate: true });
        if (pause?.id.toString() !== body.pauseId) throw (await pauseExists(tx, body.pauseId)) ? new AlreadyDecidedError() : new NotFoundError();
        const check = { act: 'payoutsResume' as const, actor, amount: 0n };
        const decision = await decideWithSecondApproval(tx, deps.policy, { check, target: pauseTarget(pause.id), subject: 'resume', now });
        if (decision.proceed) await closePause(tx, { id: pause.id, requestedBy: decision.requestedBy, confirmedBy: decision.confirmedBy, now });
        const result = { pause: pauseView(pause), resumed: decision.proceed, waitsForSecondApproval: !decision.proceed, approvals: decision.approvals };
        const audit = decision.changed ? { target: body.pauseId, before: { causes: pause.causes }, after: { resumed: result.resumed, approvals: result.approvals } } : null;
        return { result, audit };
      });
    },
  });
};

