/**
 * The operator API (API.md, "Operations"): grant, withdrawal/decide, ledger and distribute, registered only when
 * ADMIN_TOKEN is set (the access hook checks X-Admin-Token). Grant goes through the same at-most-once mechanism as
 * members' money calls (server/ledger/idempotency.ts), scoped to the operator.
 */
import type { FastifyPluginAsync } from 'fastify';
import { getAddress, isAddress } from 'viem';
import { endpoints } from '../../api-schema/endpoints';
import { InvalidParametersError, NotFoundError } from '../errors';
import { systemAccountId } from '../ledger/accounts';
import { runOnce } from '../ledger/idempotency';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { ledgerSummary, memberIdByAddress } from '../ledger/queries';
import { creditMember } from '../ledger/transfers';
import { decideWithdrawal } from '../ledger/withdrawals';
import { registerHandlers } from './endpoint';
import type { RouteDeps } from './deps';

/** EIP-55 form of an address; a mixed-case address with a wrong checksum is a typo (1001). */
function checksummed(address: string): string {
  if (!isAddress(address, { strict: true })) throw new InvalidParametersError('address');
  return getAddress(address);
}

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
      const address = checksummed(body.address);
      const amount = toMinor(body.amount);
      const now = deps.now();
      const canonical = { address, asset: body.asset, amount: formatMinor(amount), memo: body.memo ?? null };
      return runOnce(deps.db, { scope: 'admin', endpoint: 'adminGrant', requestId: body.requestId, body: canonical, now }, endpoints.adminGrant.result, async (tx) => {
        const memberId = await memberIdByAddress(tx, address);
        if (memberId === undefined) throw new NotFoundError();
        const leg = await creditMember(tx, {
          asset: body.asset,
          type: 'reward',
          memberId,
          systemAccountId: systemAccountId(body.asset, 'issuance'),
          amount,
          memo: body.memo,
          now,
        });
        return { id: leg.entryId.toString(), balanceAfter: formatMinor(leg.balanceAfter) };
      });
    },

    adminWithdrawalDecide: async ({ body }) =>
      deps.db.transaction((tx) => decideWithdrawal(tx, { id: BigInt(body.id), status: body.status, now: deps.now() })),

    adminLedger: async () => {
      const { assets, negativeAccounts } = await ledgerSummary(deps.db);
      const totals = (asset: keyof typeof assets) => ({
        members: formatMinor(assets[asset].members),
        system: formatMinor(assets[asset].system),
        total: formatMinor(assets[asset].total),
      });
      return { assets: { CREDIT: totals('CREDIT'), WPOS: totals('WPOS') }, negativeAccounts };
    },

    // The share pools come with the WPOS issue; until then there is nothing to distribute.
    adminDistribute: async () => {
      throw new NotFoundError();
    },
  });
};
