/**
 * The operators' money routes (docs/API.md, "Operations" and "Credit on chain"): grant, ledger, reconcile, distribute
 * and the top-ups re-read (withdrawal/decide is a finance call: routes/opsFinance.ts), open to finance operators. Each act
 * passes the operators' policy (server/ops/policy.ts); a grant runs at most once per request id of its operator, with
 * its audit row in its transaction (server/ops/operatorAct.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '../../api-schema/endpoints';
import { ChainUnavailableError, InvalidParametersError, NotFoundError, PolicyLimitError } from '../errors';
import { reconcile } from '../chain/reconcile';
import { listAlerts } from '../alerts/alerts';
import { checksummedAddress } from '../members/members';
import { systemAccountId } from '../ledger/accounts';
import { answerOf } from '../ledger/idempotency';
import { ApiCode } from '../../api-schema/codes';
import { formatMinor, toMinor } from '../../api-schema/amount';
import type { Db } from '../db/client';
import { postRequests } from '../ledger/engine';
import { ledgerSummary, memberIdByAddress } from '../ledger/queries';
import { requireOperator } from '../ops/actor';
import { readOverview } from '../ops/overview';
import { auditOf, recordAudit } from '../ops/audit';
import { runOperatorAct } from '../ops/operatorAct';
import { actorKeyOf, decidePolicy, recordPolicyUse } from '../ops/policy';
import { distribute } from '../ledger/poolPayouts';
import { utcDay } from '../clock';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/** Blocks one re-read of top-ups may cover: one call stays a few hundred batched requests. */
const REREAD_MAX_BLOCKS = 10_000n;

/**
 * The operators' money routes.
 *
 * @param app - plugin scope
 * @param deps - database and clock
 * @returns when registered
 * @example
 * await app.register(opsMoneyRoutes, deps);
 */
export const opsMoneyRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    opsGrant: async ({ body, request }) => {
      const address = checksummedAddress(body.address, 'address');
      const amount = toMinor(body.amount);
      const now = deps.now();
      const actor = requireOperator(request);
      // Named adminGrant until ADR 0040: a grant stored under that name (kept 48 h) still answers its retry.
      const act = { action: 'opsGrant', formerAction: 'adminGrant', requestId: body.requestId, body: { address, asset: body.asset, amount: formatMinor(amount), memo: body.memo ?? null }, now };
      return runOperatorAct(deps.db, request, act, endpoints.opsGrant.result, async (tx) => {
        const memberId = await memberIdByAddress(tx, address);
        if (memberId === undefined) throw new NotFoundError();
        const verdict = await decidePolicy(tx, deps.policy, { act: 'grant', actor, amount, member: { id: memberId, address } }, now);
        // A grant takes effect at once or not at all; above what one operator grants alone, opsAdjust waits for a second.
        if (verdict === 'confirm') throw new PolicyLimitError(': above what one operator grants alone; ask for it with /api/admin/adjust, which a second operator confirms');
        const [outcome] = await postRequests(tx, [
          {
            now,
            legs: [{ asset: body.asset, type: 'reward', from: { system: systemAccountId(body.asset, 'issuance') }, to: { member: memberId }, amount, memo: body.memo }],
            result: { id: '$entry', balanceAfter: '$balanceAfter' },
          },
        ]);
        const result = answerOf(outcome ?? { code: ApiCode.internal, result: null }, endpoints.opsGrant.result);
        await recordPolicyUse(tx, { act: 'grant', operator: actorKeyOf(actor), memberId, amount, now });
        return { result, audit: { target: address, after: { asset: body.asset, amount: formatMinor(amount), memo: body.memo ?? null, entry: result.id, balanceAfter: result.balanceAfter } } };
      });
    },

    opsAlerts: async () => listAlerts(deps.db, 20),

    opsOverview: async ({ request }) => readOverview(deps.db, await app.businessFigures(), requireOperator(request)),

    opsReconcile: async () => {
      if (!deps.chain) throw new NotFoundError();
      return reconcile(deps.db, deps.chain.chain, deps.chain.payer, deps.now());
    },

    opsTopUpsReread: async ({ body, request }) => {
      if (!deps.chain) throw new NotFoundError();
      await deps.db.transaction((tx) => decidePolicy(tx, deps.policy, { act: 'topUpsReread', actor: requireOperator(request), amount: 0n }, deps.now()));
      const fromBlock = BigInt(body.fromBlock);
      const toBlock = BigInt(body.toBlock);
      if (toBlock < fromBlock || toBlock - fromBlock + 1n > REREAD_MAX_BLOCKS) throw new InvalidParametersError('toBlock');
      const { chain, watcher } = deps.chain;
      const head = await chain.client.getBlockNumber({ cacheTime: 0 }).catch(() => {
        throw new ChainUnavailableError();
      });
      // Only blocks at depth, as the watcher credits them.
      if (toBlock > head - BigInt(chain.settings.confirmations)) throw new InvalidParametersError('toBlock');
      const audit = async (tx: Db, range: { from: bigint; to: bigint; credited: number; held: number }) => {
        await recordAudit(tx, auditOf(request, deps.now(), { action: 'opsTopUpsReread', target: `${range.from}-${range.to}`, after: { credited: range.credited, held: range.held } }));
      };
      const read = await watcher.reread(fromBlock, toBlock, audit).catch((error: unknown) => {
        request.log.warn({ err: error }, 'top-up re-read failed');
        throw new ChainUnavailableError();
      });
      // A node lagged or disagreed on the range: what was credited before that stays; ask again.
      if (!read.settled) throw new ChainUnavailableError();
      return { found: read.found, credited: read.credited, held: read.held };
    },

    opsLedger: async () => {
      const { assets, negativeAccounts } = await ledgerSummary(deps.db);
      const totals = (asset: keyof typeof assets) => ({
        members: formatMinor(assets[asset].members),
        system: formatMinor(assets[asset].system),
        total: formatMinor(assets[asset].total),
      });
      return { assets: { CREDIT: totals('CREDIT'), WPOS: totals('WPOS') }, negativeAccounts };
    },

    opsDistribute: async ({ body, request }) => {
      const now = deps.now();
      const day = body?.day ?? utcDay(now);
      // ISO dates compare as text; a day still to come has no balances to pay on.
      if (day > utcDay(now)) throw new InvalidParametersError('day');
      await deps.db.transaction((tx) => decidePolicy(tx, deps.policy, { act: 'distribute', actor: requireOperator(request), amount: 0n }, now));
      const run = await distribute(deps.db, day, now, {
        ...deps.payouts,
        // The act is the plan: its row is written with it (a run that only finishes an earlier plan decides nothing).
        audit: async (tx, plan) => {
          await recordAudit(tx, auditOf(request, now, { action: 'opsDistribute', target: day, after: { pools: plan.pools, paid: formatMinor(plan.total), unfunded: plan.unfunded } }));
        },
      });
      return { pools: run.pools, paid: formatMinor(run.paid), unfunded: run.unfunded };
    },
  });
};
