/**
 * The operator API (docs/API.md, "Operations" and "Credit on chain"): grant, ledger, reconcile, distribute and the top-ups re-read (withdrawal/decide is a finance call: routes/opsFinance.ts), open to
 * finance operators (the access hook checks the role; X-Admin-Token only as the deprecated bootstrap). Grant goes through the same at-most-once mechanism as
 * members' money calls (server/ledger/idempotency.ts), scoped to the operator.
 */
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '../../api-schema/endpoints';
import { ChainUnavailableError, InvalidParametersError, NotFoundError } from '../errors';
import { reconcile } from '../chain/reconcile';
import { checksummedAddress } from '../members/members';
import { systemAccountId } from '../ledger/accounts';
import { answerOf } from '../ledger/idempotency';
import { ApiCode } from '../../api-schema/codes';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { ledgerSummary, memberIdByAddress } from '../ledger/queries';
import { distribute } from '../ledger/sharePools';
import { utcDay } from '../clock';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/** Blocks one re-read of top-ups may cover: one call stays a few hundred batched requests. */
const REREAD_MAX_BLOCKS = 10_000n;

/**
 * The operator routes.
 *
 * @param app - plugin scope
 * @param deps - database and clock
 * @returns when registered
 * @example
 * if (deps.adminToken) await app.register(adminRoutes, deps);
 */
export const adminRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  registerHandlers(app, {
    adminGrant: async ({ body }) => {
      const address = checksummedAddress(body.address, 'address');
      const amount = toMinor(body.amount);
      const now = deps.now();
      const memberId = await memberIdByAddress(deps.db, address);
      const key = { scope: 'admin', endpoint: 'adminGrant', requestId: body.requestId, body: { address, asset: body.asset, amount: formatMinor(amount), memo: body.memo ?? null } };
      const member = memberId ?? 0;
      const outcome = await deps.ledger.post(
        () => ({
          key,
          now,
          reject: memberId === undefined ? ApiCode.notFound : undefined,
          legs: [{ asset: body.asset, type: 'reward', from: { system: systemAccountId(body.asset, 'issuance') }, to: { member }, amount, memo: body.memo }],
          result: { id: '$entry', balanceAfter: '$balanceAfter' },
        }),
        now,
      );
      return answerOf(outcome, endpoints.adminGrant.result);
    },

    adminReconcile: async () => {
      if (!deps.chain) throw new NotFoundError();
      return reconcile(deps.db, deps.chain.chain, deps.chain.payer, deps.now());
    },

    adminTopUpsReread: async ({ body, request }) => {
      if (!deps.chain) throw new NotFoundError();
      const fromBlock = BigInt(body.fromBlock);
      const toBlock = BigInt(body.toBlock);
      if (toBlock < fromBlock || toBlock - fromBlock + 1n > REREAD_MAX_BLOCKS) throw new InvalidParametersError('toBlock');
      const { chain, watcher } = deps.chain;
      const head = await chain.client.getBlockNumber({ cacheTime: 0 }).catch(() => {
        throw new ChainUnavailableError();
      });
      // Only blocks at depth, as the watcher credits them.
      if (toBlock > head - BigInt(chain.settings.confirmations)) throw new InvalidParametersError('toBlock');
      const read = await watcher.reread(fromBlock, toBlock).catch((error: unknown) => {
        request.log.warn({ err: error }, 'top-up re-read failed');
        throw new ChainUnavailableError();
      });
      // A node lagged or disagreed on the range: what was credited before that stays; ask again.
      if (!read.settled) throw new ChainUnavailableError();
      return { found: read.found, credited: read.credited, held: read.held };
    },

    adminLedger: async () => {
      const { assets, negativeAccounts } = await ledgerSummary(deps.db);
      const totals = (asset: keyof typeof assets) => ({
        members: formatMinor(assets[asset].members),
        system: formatMinor(assets[asset].system),
        total: formatMinor(assets[asset].total),
      });
      return { assets: { CREDIT: totals('CREDIT'), WPOS: totals('WPOS') }, negativeAccounts };
    },

    adminDistribute: async ({ body }) => {
      const now = deps.now();
      const day = body?.day ?? utcDay(now);
      // ISO dates compare as text; a day still to come has no balances to pay on.
      if (day > utcDay(now)) throw new InvalidParametersError('day');
      const run = await distribute(deps.db, day, now);
      return { pools: run.pools, paid: formatMinor(run.paid) };
    },
  });
};
