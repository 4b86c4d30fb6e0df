import type { AppMetrics } from '../metrics/registry';
import type { Binder } from '../members/tree';
import type { OperatorsPolicy } from '../ops/policy';
import type { PayoutOptions } from '../ledger/poolPayouts';
import type { FastifyRequest } from 'fastify';
import type { NonceIssuer } from '../auth/nonces';
import type { SessionStarter } from '../auth/signIn';
import type { TokenResolver } from '../auth/tokens';
import type { OperatorResolver } from '../ops/actor';
import type { SignInSite, SignInSites } from '../auth/signInSites';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { AutoApproval } from '../ledger/autoApproval';
import type { LedgerBatcher } from '../ledger/engine';
import type { SettlementInputsReader } from '../buy/orders';
import type { Chain } from '../chain/chain';
import type { TopUpWatcher } from '../chain/topUpWatcher';
import type { Payer } from '../chain/payer';
import type { RateLimitRule } from './endpoint';

/** What every route plugin gets from buildApp. */
export interface RouteDeps {
  db: Db;
  now: Clock;
  /** The instance's metrics (server/metrics/registry.ts): the routes count what only they see (sign-ins by wallet). */
  metrics: AppMetrics;
  /** The sites sign-in messages may name (PUBLIC_URL, SIWE_DOMAIN, or the listen addresses). */
  signInSites: SignInSites;
  rateLimits: { loginNonce: RateLimitRule; memberSignLogin: RateLimitRule; topUp: RateLimitRule };
  /** loginNonce's nonces, batched. */
  nonces: NonceIssuer;
  /** memberSignLogin's sessions, batched. */
  sessions: SessionStarter;
  /** Binds (memberSignLogin's invite code, bindRecommendRelation), batched. */
  binds: Binder;
  /** Sign-ins worked on at once; the rest wait their turn. */
  signInsAtOnce: number;
  /** The share pools' payouts: holders per batch, and the fault tests' hook. */
  payouts: PayoutOptions;
  /** The access hook's token reads, batched. */
  tokens: TokenResolver;
  /** The access hook's operator session and API key reads, batched (server/ops/resolver.ts). */
  operators: OperatorResolver;
  /** The ledger batcher: every money flow's requests, batched, each batch built from the app config it keeps. */
  ledger: LedgerBatcher;
  /** What settlements read before the engine (price, address), batched. */
  settlementInputs: SettlementInputsReader;
  /** Credit on chain: the chain and its top-up watcher; absent on a server without a chain (topUp is 4004 there). */
  chain?: { chain: Chain; watcher: TopUpWatcher; payer?: Payer | undefined } | undefined;
  /** Withdrawals approved on request within AUTO_APPROVE_MAX (a member's day) and AUTO_APPROVE_HOURLY (everyone's hour). */
  autoApproval: AutoApproval;
  /** APPROVAL_QUORUM_ABOVE in minor units: above it a withdrawal's approval or an adjustment needs two different operators. */
  approvalQuorumAbove: bigint;
  /** The operators' policy (server/ops/policy.ts): every act that creates or moves value passes it. */
  policy: OperatorsPolicy;
}

/**
 * The site a sign-in at this request must name: the request's host (Host, or X-Forwarded-Host behind a trusted
 * proxy) when it is in the allowlist, else none, and then every message is refused (1005). The caller's Host
 * only ever picks among the server's own sites.
 *
 * @param deps - route dependencies
 * @param request - the request
 * @returns the allowed site, or undefined
 * @example
 * expectedSite(deps, request); // { host: 'member.example', protocol: 'https:' }
 */
export function expectedSite(deps: Pick<RouteDeps, 'signInSites'>, request: FastifyRequest): SignInSite | undefined {
  return deps.signInSites.match(request.host);
}

/**
 * The domain dappParam announces: the request's host when allowed, else the first allowed site; never a host
 * outside the allowlist.
 *
 * @param deps - route dependencies
 * @param request - the request
 * @returns the domain (authority), e.g. "member.example"
 * @example
 * announcedDomain(deps, request); // "member.example"
 */
export function announcedDomain(deps: Pick<RouteDeps, 'signInSites'>, request: FastifyRequest): string {
  return deps.signInSites.domainFor(request.host);
}
