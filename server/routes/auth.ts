/** Sign-in area: loginNonce, memberSignLogin, bindRecommendRelation, logout (docs/API.md, "Authentication"). */
import pLimit from 'p-limit';
import type { DatabaseDriver } from '../db/driver';
import type { FastifyPluginAsync } from 'fastify';
import { getAddress, isAddress } from 'viem';
import { parseSiweMessage } from 'viem/siwe';
import { releaseHeldTopUps } from '../chain/topUps';
import { signIn } from '../auth/signIn';
import { revokeToken } from '../auth/tokens';
import { apiCodeOf, BindCycleError, InvalidParametersError, InviteCodeUnknownError, RecommenderAlreadyBoundError } from '../errors';
import { requireAuth } from '../plugins/access';
import { ApiCode } from '../../api-schema/codes';
import { walletOf } from '../metrics/walletOf';
import { registerHandlers } from './endpoint';
import { expectedSite, type RouteDeps } from './deps';

/**
 * Normalises a query address to EIP-55. The contract only checks the hex shape; a mixed-case address with a
 * wrong checksum is a typo and refused, all-lower-case is accepted and checksummed.
 */
function checksummed(address: string): string {
  if (!isAddress(address, { strict: true })) throw new InvalidParametersError('address');
  return getAddress(address);
}

/**
 * The sign-in routes.
 *
 * @param app - plugin scope
 * @param deps - database, clock, domain and rate limits
 * @returns when registered
 * @example
 * await app.register(authRoutes, deps);
 */
/**
 * Sign-ins in progress at once per instance: enough for the session and bind batches to fill (ADR 0012), few enough
 * that a member's meInfo waits behind them for milliseconds, not for a whole rush (bench/rush.ts measures both). On
 * PGlite every statement waits for the one before; PostgreSQL runs a few side by side and takes twice as many.
 */
export const SIGN_INS_AT_ONCE: Readonly<Record<DatabaseDriver, number>> = { pglite: 16, 'node-postgres': 32 };

export const authRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  // A rush of sign-ins (a campaign) takes at most this many of the instance's turns at once; the rest wait their
  // turn here, unparsed and unverified, so every other member's calls still find the event loop and the database.
  const signIns = pLimit(deps.signInsAtOnce);
  registerHandlers(
    app,
    {
      loginNonce: async ({ query }) => deps.nonces.issue(checksummed(query.address), deps.now()),

      memberSignLogin: async ({ body, request }) => {
        const site = expectedSite(deps, request);
        const now = deps.now();
        const wallet = walletOf(request.headers['user-agent']);
        const signedIn = await signIns(() =>
          signIn(deps.db, {
            message: body.message,
            signature: body.signature,
            inviteCode: body.inviteCode,
            expectedDomain: site?.host,
            expectedProtocol: site?.protocol,
            chain: deps.chain?.chain.client,
            now,
          }, deps.sessions, deps.binds),
        ).catch((error: unknown) => {
          // Failed sign-ins by wallet (the metrics): a wallet whose signatures fail shows before its members write.
          deps.metrics.signInsFailed.inc({ wallet, code: String(apiCodeOf(error) ?? ApiCode.internal) });
          throw error;
        });
        deps.metrics.signIns.inc({ wallet });
        // Top-ups sent before the address was a member reach it now (docs/API.md, "Credit on chain"); should this fail,
        // the watcher's next round releases them, so the sign-in stands.
        const { address } = parseSiweMessage(body.message);
        if (deps.chain && address) {
          await releaseHeldTopUps(deps.db, deps.chain.chain.settings.chainId, now, getAddress(address)).catch((error: unknown) =>
            request.log.warn({ err: error }, 'releasing held top-ups at sign-in failed'),
          );
        }
        return signedIn;
      },

      bindRecommendRelation: async ({ body, request }) => {
        const { memberId } = requireAuth(request);
        const outcome = await deps.binds.bind(memberId, body.inviteCode);
        if (outcome === 'inviteCodeUnknown') throw new InviteCodeUnknownError();
        if (outcome === 'alreadyBound') throw new RecommenderAlreadyBoundError();
        if (outcome === 'cycle') throw new BindCycleError();
        return undefined;
      },

      logout: async ({ request }) => {
        await revokeToken(deps.db, requireAuth(request).tokenHash, deps.now());
        return undefined;
      },
    },
    {
      loginNonce: { rateLimit: deps.rateLimits.loginNonce },
      memberSignLogin: { rateLimit: deps.rateLimits.memberSignLogin },
    },
  );
};
