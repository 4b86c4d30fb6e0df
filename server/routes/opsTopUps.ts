/**
 * The operators' held top-ups (docs/operations.md, "Held top-ups"; docs/API.md, "Held top-ups"): the list, a release to
 * a member under the operators' policy (a second operator above what one releases alone; never to oneself) and a return
 * to the sender on chain (server/chain/heldTopUps.ts). Each act and its audit row commit together.
 */
import type { FastifyPluginAsync } from 'fastify';
import { AlreadyDecidedError, NotFoundError } from '../errors';
import {
  heldForDecision,
  listHeldTopUps,
  lockHeldDecisions,
  readHeldTopUp,
  refuseWhileReturnWatched,
  releaseHeldTopUpTo,
  returnHeldTopUp,
  type DecisionState,
  type TopUpKey,
} from '../chain/heldTopUps';
import type { Db } from '../db/client';
import { memberIdByAddress } from '../ledger/queries';
import { checksummedAddress } from '../members/members';
import { requireOperator } from '../ops/actor';
import { auditOf, recordAudit } from '../ops/audit';
import { recordPolicyUse } from '../ops/policy';
import { decideWithSecondApproval } from '../ops/secondApprovals';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/**
 * The held top-ups' routes (operator:finance).
 *
 * @param app - plugin scope
 * @param deps - database, clock, chain
 * @returns when registered
 * @example
 * await app.register(opsTopUpsRoutes, deps);
 */
export const opsTopUpsRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  /** The chain this server credits top-ups from (4004 without one). */
  const chainOf = () => {
    if (!deps.chain) throw new NotFoundError();
    return deps.chain.chain;
  };
  /** The top-up's key as stored (hashes in lower case). */
  const keyOf = (body: { txHash: string; logPosition: number }): TopUpKey => ({ txHash: body.txHash.toLowerCase(), logPosition: body.logPosition });

  /** Runs an act and writes its audit row in one transaction; answers the top-up as it is then. */
  async function decide(
    request: Parameters<typeof auditOf>[0],
    action: 'opsHeldTopUpReturn',
    body: { txHash: string; logPosition: number; requestId: string },
    act: (tx: Db, chainId: number, key: TopUpKey) => Promise<{ before: DecisionState; after: DecisionState }>,
  ) {
    const chain = chainOf();
    const key = keyOf(body);
    await refuseWhileReturnWatched(deps.db, chain, key);
    await deps.db.transaction(async (tx) => {
      await lockHeldDecisions(tx);
      const { before, after } = await act(tx, chain.settings.chainId, key);
      await recordAudit(tx, auditOf(request, deps.now(), { action, target: `${key.txHash}/${key.logPosition}`, before, after, requestId: body.requestId }));
    });
    const view = await readHeldTopUp(deps.db, chain, key);
    if (!view) throw new NotFoundError();
    return view;
  }

  registerHandlers(app, {
    opsHeldTopUps: async ({ query }) => listHeldTopUps(deps.db, chainOf(), { state: query.state, cursor: query.cursor, limit: query.limit }),

    opsHeldTopUpRelease: async ({ body, request }) => {
      const address = checksummedAddress(body.address, 'address');
      const memberId = await memberIdByAddress(deps.db, address);
      if (memberId === undefined) throw new NotFoundError();
      const chain = chainOf();
      const key = keyOf(body);
      const actor = requireOperator(request);
      const now = deps.now();
      await refuseWhileReturnWatched(deps.db, chain, key);
      // Under the policy: alone within the operator's amounts, else it waits for a second operator's release to the same member.
      const waiting = await deps.db.transaction(async (tx) => {
        await lockHeldDecisions(tx);
        const held = await heldForDecision(tx, chain.settings.chainId, key);
        if (held.decision.state === 'released' && held.releasedToId === memberId) return undefined;
        if (held.decision.state !== 'held') throw new AlreadyDecidedError();
        const target = `${key.txHash}/${key.logPosition}`;
        const check = { act: 'topUpRelease' as const, actor, amount: held.amount, member: { id: memberId, address } };
        const decision = await decideWithSecondApproval(tx, deps.policy, { check, target, subject: String(memberId), now });
        if (!decision.proceed) {
          if (decision.changed) {
            await recordAudit(tx, auditOf(request, now, { action: 'opsHeldTopUpRelease', target, before: held.decision, after: { ...held.decision, waitsForSecondApproval: true, approvals: decision.approvals, to: address }, requestId: body.requestId }));
          }
          return decision.approvals;
        }
        const { before, after } = await releaseHeldTopUpTo(tx, chain.settings.chainId, key, memberId, now);
        await recordPolicyUse(tx, { act: 'topUpRelease', operator: decision.requestedBy, memberId, amount: held.amount, confirmedBy: decision.confirmedBy, now });
        await recordAudit(tx, auditOf(request, now, { action: 'opsHeldTopUpRelease', target, before, after: { ...after, approvals: decision.approvals }, requestId: body.requestId }));
        return undefined;
      });
      const view = await readHeldTopUp(deps.db, chain, key);
      if (!view) throw new NotFoundError();
      return waiting === undefined ? view : { ...view, waitsForSecondApproval: true, approvals: waiting };
    },

    opsHeldTopUpReturn: async ({ body, request }) =>
      decide(request, 'opsHeldTopUpReturn', body, (tx, chainId, key) => returnHeldTopUp(tx, chainId, key, deps.now())),
  });
};
