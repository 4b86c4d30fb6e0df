/**
 * The finance calls of the operators' desk (docs/API.md, "Operators: finance calls"): the withdrawals' queue and
 * their decisions (server/ops/withdrawalDecisions.ts: approval under the operators' policy, one at a time or in bulk,
 * and failure), a member's lookup, sign-out and freeze, and
 * adjustments with their confirmation (and the list of those waiting for it). Every act writes its audit row in its
 * own transaction, the one that moves the money or changes the state, and only when it changed something.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { endpoints } from '../../api-schema/endpoints';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import type { Db } from '../db/client';
import { apiCodeOf, InvalidParametersError, NotFoundError } from '../errors';
import { adjust, confirmAdjustment, listWaitingAdjustments } from '../ledger/adjustments';
import { memberIdByAddress } from '../ledger/queries';
import { freezeOf, setFreeze } from '../members/freezes';
import { checksummedAddress } from '../members/members';
import { requireOperator } from '../ops/actor';
import { runOperatorAct } from '../ops/operatorAct';
import { auditOf, recordAudit, type AuditAct } from '../ops/audit';
import { lookUpMember, signMemberOut } from '../ops/memberLookup';
import { listMembers } from '../ops/memberList';
import { approveWithdrawal, failWithdrawal } from '../ops/withdrawalDecisions';
import { listQueue, queuedWithdrawal } from '../ops/withdrawalQueue';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/** The member of an address the body names (1001 for a bad checksum, 4004 for no member). */
async function memberOf(db: Db, address: string): Promise<{ address: string; memberId: number }> {
  const checksummed = checksummedAddress(address, 'address');
  const memberId = await memberIdByAddress(db, checksummed);
  if (memberId === undefined) throw new NotFoundError();
  return { address: checksummed, memberId };
}

/**
 * The finance routes.
 *
 * @param app - plugin scope
 * @param deps - database, clock, the operators' policy, the quorum threshold
 * @returns when registered
 * @example
 * await app.register(opsFinanceRoutes, deps);
 */
export const opsFinanceRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  const decisionDeps = { db: deps.db, policy: deps.policy };
  const audit = (request: FastifyRequest, act: AuditAct, db: Db = deps.db) => recordAudit(db, auditOf(request, deps.now(), act));

  /** One approval, audited in its transaction: the withdrawal before and after, and the approvals so far. */
  function approveAudited(request: FastifyRequest, action: string, id: bigint) {
    return approveWithdrawal(decisionDeps, { id, actor: requireOperator(request), now: deps.now() }, async (tx, { before, outcome }) => {
      await audit(
        request,
        {
          action,
          target: id,
          before: { status: before.status },
          after: { status: outcome.withdrawal.status, approvals: outcome.approvals.map((approval) => approval.address), waitsForSecondApproval: outcome.waitsForSecondApproval },
        },
        tx,
      );
    });
  }

  registerHandlers(app, {
    opsWithdrawalDecide: async ({ body, request }) => {
      const id = BigInt(body.id);
      if (body.status === 'approved') {
        if (body.reason !== undefined) throw new InvalidParametersError('reason');
        const outcome = await approveAudited(request, 'opsWithdrawalDecide', id);
        return { ...outcome.withdrawal, approvals: outcome.approvals, waitsForSecondApproval: outcome.waitsForSecondApproval };
      }
      return failWithdrawal(decisionDeps, { id, now: deps.now(), note: body.reason }, async (tx, { before, after }) => {
        await audit(request, { action: 'opsWithdrawalDecide', target: id, before: { status: before.status }, after: { status: after.status, note: after.note ?? null } }, tx);
      });
    },

    opsWithdrawals: async ({ query, request }) => {
      const address = query.address === undefined ? undefined : checksummedAddress(query.address, 'address');
      return listQueue(deps.db, {
        status: query.status,
        address,
        awaitingApprovalBy: query.awaiting === 'me' ? requireOperator(request).address : undefined,
        cursor: query.cursor === undefined ? undefined : BigInt(query.cursor),
        limit: query.limit,
        now: deps.now(),
        quorumAbove: deps.approvalQuorumAbove,
      });
    },

    opsWithdrawalsApprove: async ({ body, request }) => {
      const results = [];
      // One at a time, in order: each answer is what opsWithdrawalDecide would have answered then, and each counts
      // against the operator's totals before the next is decided.
      for (const text of body.ids) {
        const id = BigInt(text);
        try {
          const outcome = await approveAudited(request, 'opsWithdrawalsApprove', id);
          const withdrawal = await queuedWithdrawal(deps.db, id, deps.now(), deps.approvalQuorumAbove);
          results.push({ id: text, code: ApiCode.ok, ...(withdrawal ? { withdrawal } : {}), waitsForSecondApproval: outcome.waitsForSecondApproval });
        } catch (error) {
          const code: ApiCodeValue | undefined = apiCodeOf(error);
          if (code === undefined) throw error;
          results.push({ id: text, code });
        }
      }
      return { results };
    },

    opsMembers: ({ query }) =>
      listMembers(deps.db, { q: query.q, frozenOnly: query.frozen === 'true', cursor: query.cursor === undefined ? undefined : Number(query.cursor), limit: query.limit }),

    opsMember: async ({ query }) => {
      const member = await lookUpMember(deps.db, query.q, deps.now());
      if (!member) throw new NotFoundError();
      return member;
    },

    opsMemberSignOut: async ({ body, request }) => {
      const { address, memberId } = await memberOf(deps.db, body.address);
      const revoked = await deps.db.transaction(async (tx) => {
        const count = await signMemberOut(tx, memberId, deps.now());
        await audit(request, { action: 'opsMemberSignOut', target: address, after: { revoked: count } }, tx);
        return count;
      });
      return { revoked };
    },

    opsMemberFreeze: async ({ body, request }) => {
      const { address, memberId } = await memberOf(deps.db, body.address);
      const actor = requireOperator(request);
      const frozen = await deps.db.transaction(async (tx) => {
        const before = await freezeOf(tx, memberId);
        const after = await setFreeze(tx, { memberId, frozen: body.frozen, reason: body.reason, by: actor.address, now: deps.now() });
        await audit(request, { action: 'opsMemberFreeze', target: address, before: { frozen: before }, after: { frozen: after, reason: body.reason } }, tx);
        return after;
      });
      return { address, frozen };
    },

    opsAdjust: async ({ body, request }) => {
      const address = checksummedAddress(body.address, 'address');
      const negative = body.amount.startsWith('-');
      const magnitude = toMinor(negative ? body.amount.slice(1) : body.amount);
      const amount = negative ? -magnitude : magnitude;
      const actor = requireOperator(request);
      const now = deps.now();
      const act = { action: 'opsAdjust', requestId: body.requestId, body: { address, asset: body.asset, amount: body.amount.startsWith('-') ? `-${formatMinor(magnitude)}` : formatMinor(magnitude), reason: body.reason }, now };
      return runOperatorAct(deps.db, request, act, endpoints.opsAdjust.result, async (tx) => {
        const memberId = await memberIdByAddress(tx, address);
        const adjustment = await adjust(tx, { policy: deps.policy }, { memberId, address, asset: body.asset, amount, reason: body.reason, requestId: body.requestId, by: actor.address, now }, actor);
        return { result: adjustment, audit: { target: address, after: adjustment } };
      });
    },

    opsAdjustmentsPending: async ({ query }) => listWaitingAdjustments(deps.db, { cursor: query.cursor === undefined ? undefined : BigInt(query.cursor), limit: query.limit }),

    opsAdjustConfirm: async ({ body, request }) =>
      deps.db.transaction(async (tx) => {
        const id = BigInt(body.id);
        const { before, after, changed } = await confirmAdjustment(tx, { policy: deps.policy }, { id, actor: requireOperator(request), now: deps.now() });
        if (changed) await audit(request, { action: 'opsAdjustConfirm', target: id, before, after }, tx);
        return after;
      }),
  });
};
