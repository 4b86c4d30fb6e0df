/**
 * buildApp: the whole HTTP server as a Fastify instance, ready for app.inject() in tests or listen() in main.ts.
 * It never listens and never migrates: the caller owns the database's life cycle.
 */
import { randomUUID } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { OperatorActStep } from './ops/operatorActSteps';
import { defaultPolicyLimits, operatorsPolicy, type PolicyLimits } from './ops/policy';
import { configuredSites, listenSites, SignInSites } from './auth/signInSites';
import { systemClock, type Clock } from './clock';
import type { Db } from './db/client';
import { TooManyRequestsError } from './errors';
import { installAccessControl } from './plugins/access';
import { installDeskPort } from './plugins/deskPort';
import { installErrorHandling } from './plugins/errorHandler';
import { installOddTargetRoute, routeOddTargets } from './plugins/requestTarget';
import { installSecurityHeaders } from './plugins/security';
import { registerStatic } from './plugins/static';
import { answerClientError } from './plugins/clientErrors';
import { installCompression } from './plugins/compression';
import { registerAtlas } from './plugins/atlas';
import { databaseRateLimitStore } from './plugins/rateLimitStore';
import { opsMoneyRoutes } from './routes/opsMoney';
import { opsRoutes } from './routes/ops';
import { createOperatorResolver } from './ops/resolver';
import { opsTopUpsRoutes } from './routes/opsTopUps';
import { opsFinanceRoutes } from './routes/opsFinance';
import { opsContentRoutes } from './routes/opsContent';
import { opsPayerRoutes } from './routes/opsPayer';
import { opsPolicyRoutes } from './routes/opsPolicy';
import { opsOrdersRoutes } from './routes/opsOrders';
import { authRoutes } from './routes/auth';
import { dappRoutes } from './routes/dapp';
import { buyRoutes } from './routes/buy';
import { createNonceIssuer } from './auth/nonces';
import { createSessionStarter } from './auth/signIn';
import { startTeamCountFold } from './members/teamCounts';
import { createBinder } from './members/tree';
import { SIGN_INS_AT_ONCE } from './routes/auth';
import { createTokenResolver } from './auth/tokens';
import { signerRecovery } from './auth/signerRecovery';
import { createSettlementInputsReader } from './buy/orders';
import { LEDGER_BATCHES_IN_FLIGHT } from './ledger/batcher';
import { createAutoApproval } from './ledger/autoApproval';
import { unlessFrozen } from './members/freezes';
import { createLedgerBatcher } from './ledger/engine';
import type { RouteDeps } from './routes/deps';
import type { RateLimitRule } from './routes/endpoint';
import { memberRoutes } from './routes/member';
import { moneyRoutes } from './routes/money';
import { wposRoutes } from './routes/wpos';
import { startPayoutTimer, type PayoutOptions } from './ledger/poolPayouts';
import type { Chain } from './chain/chain';
import { createTopUpWatcher } from './chain/topUpWatcher';
import { createPayer, type PayerOptions, type PayerRound } from './chain/payer';
import { retentionTimer } from './retention';
import { haltReason } from './chain/payer/journal';
import { repoRoot } from './serverFiles';
import { createReadiness, type ReadinessOptions } from './health/readiness';
import { healthRoutes } from './routes/health';
import { createAppMetrics, type AppMetrics } from './metrics/registry';
import { installHttpMetrics } from './metrics/httpMetrics';
import { DEFAULT_METRICS_ALLOW, metricsAllowList, registerMetricsRoute } from './metrics/route';
import { registerBusinessGauges } from './metrics/business';
import type { BusinessFigures } from './metrics/businessFigures';
import { DEFAULT_RECONCILE_EVERY_MS, reconcileSchedule, type ReconcileRun } from './chain/reconcileSchedule';
import { judgeAlerts } from './alerts/alerts';
import { alertDeliveryLoop, deliverDueAlerts } from './alerts/deliveries';
import { DEFAULT_ALERT_THRESHOLDS, type AlertThresholds } from './alerts/rules';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sites sign-in messages may name (ADR 0007); main.ts prints them at start. */
    signInSites: SignInSites;
    /**
     * The first step of stopping (main.ts, on SIGTERM; docs/operations.md, "Health and stopping"): readiness answers
     * 503 from now on, and the payer's and top-up watcher's timers stop; resolves when a round under way has ended.
     * Requests are still served until close(), which finishes those under way (each answered with Connection: close).
     */
    beginStop(): Promise<void>;
    /** The instance's metrics (GET /metrics; server/metrics/registry.ts). */
    metrics: AppMetrics;
    /** The figures the business gauges show, read now. */
    businessFigures(): Promise<BusinessFigures>;
    /**
     * One round of the scheduled reconcile (server/chain/reconcileSchedule.ts): the stored run, or undefined when
     * another instance holds the lease or the app has no chain. Tests run it; main.ts runs it on its timer.
     */
    reconcileRound(): Promise<ReconcileRun | undefined>;
    /** One round of this instance's payer (server/chain/payer/), undefined without one. Tests run it; its timer does in production. */
    payerRound(): Promise<PayerRound | undefined>;
    /** One round of the alerts' webhook deliveries (server/alerts/deliveries.ts); nothing without ALERT_WEBHOOK_URLS. */
    deliverAlerts(): Promise<{ delivered: number; failed: number }>;
  }
}


export interface BuildAppOptions {
  /** Migrated and seeded database (see server/db/client.ts and server/seed/seed.ts). */
  db: Db;
  /**
   * SIWE_DOMAIN: one or more comma-separated host[:port] that sign-in messages may name. With neither this nor
   * publicUrl, the allowed sites are the server's listen addresses (known once it listens) and loopback hosts
   * at any port (server/auth/signInSites.ts).
   */
  siweDomain?: string | undefined;
  /** PUBLIC_URL: one or more comma-separated http(s) origins members open; allowed like siweDomain, scheme included. */
  publicUrl?: string | undefined;
  /** Clock; tests move it to reach expiry. */
  now?: Clock;
  /** Fastify logger option; default off (main.ts turns it on). */
  logger?: FastifyServerOptions['logger'];
  /** Largest request body in bytes; default 16 KiB (the largest legitimate body is a 4 KiB message). */
  bodyLimit?: number;
  /** Milliseconds to receive a whole request; default 30 s. */
  requestTimeout?: number;
  /** Per-client limits on the sign-in calls and per-member on topUp; defaults: loginNonce 30/min, memberSignLogin 10/min, topUp 60/min. */
  rateLimits?: Partial<RouteDeps['rateLimits']>;
  /**
   * Where the rate limits count: 'database' keeps the counters in the rate_limits table, so every instance on one
   * PostgreSQL database counts against one limit (main.ts with DATABASE_URL); 'memory', the default and PGlite's,
   * keeps them in this process (server/plugins/rateLimitStore.ts).
   */
  rateLimitStore?: 'memory' | 'database';
  /** Built SPA folder; default dist/spa; null serves no SPA. */
  spaDir?: string | null;
  /** Translations folder; default locales/. */
  localesDir?: string;
  /** The product owner's atlas (npm run atlas), served read-only at /atlas; default docs/atlas; null: not served (ATLAS). */
  atlasDir?: string | null;
  /**
   * Trust X-Forwarded-* (behind a load balancer), so rate limits key on X-Forwarded-For, the sign-in site check
   * reads X-Forwarded-Host and HSTS reads X-Forwarded-Proto: true trusts every hop (then a client can choose its
   * X-Forwarded-For unless the proxy overwrites it), a number that many hops next to the server, a list those
   * proxy addresses or CIDR ranges. Default false.
   */
  trustProxy?: boolean | number | readonly string[];
  /**
   * OPS_PORT set: the desk (ops.html, /api/admin) is served only on a listener of its own, opened with
   * app.deskPort.listen() after the app's listen, and the app's own port answers 404 for it (server/plugins/deskPort.ts).
   */
  deskOnOwnPort?: boolean;
  /** Told of every route as it is registered (the authorization matrix test lists the operator calls with it). */
  onRoute?: ((route: RouteOptions) => void) | undefined;
  /** Read batches of one kind running at once (server/ledger/batcher.ts BATCHES_IN_FLIGHT); default 1. Money batches run one at a time (LEDGER_BATCHES_IN_FLIGHT). */
  batchesInFlight?: number;
  /**
   * Run the share pools' payout at each 00:00 UTC, and at start what a crash left of one (server/ledger/poolPayouts.ts).
   * Off by default, so a test that crosses midnight sees no payout it did not ask for; main.ts turns it on.
   */
  payoutTimer?: boolean;
  /** The payouts' holders per batch (SHARE_POOL_PAYOUT_BATCH) and, for fault tests only, a hook after each batch (PAYOUT_FAULT_AT). */
  payouts?: PayoutOptions | undefined;
  /**
   * Fold waiting binds into the kept team counts every TEAM_COUNT_FOLD_EVERY_MS (server/members/teamCounts.ts).
   * main.ts turns it on; tests fold when they mean to, since reads are exact either way and a fold in the
   * background would change rows under a test that checks nothing changed.
   */
  teamCountFold?: boolean;
  /** Sign-ins worked on at once (default: server/routes/auth.ts SIGN_INS_AT_ONCE of PGlite; main.ts picks the driver's). */
  signInsAtOnce?: number | undefined;
  /** Credit on chain (docs/API.md): the connected chain; without it there are no top-ups (topUp answers 4004). */
  chain?: Chain | undefined;
  /**
   * The top-up watcher's first block (the token's deployment) and whether it runs on its own timer every `pollMs`
   * (main.ts: yes; tests run rounds themselves).
   */
  topUpWatcher?: { startBlock?: bigint; pollMs?: number; timer?: boolean } | undefined;
  /**
   * AUTO_APPROVE_MAX in minor units: what one member's withdrawals may have approved on request in a UTC day; default
   * 0 (none is). Past it, or past autoApproveHourly, a withdrawal waits for an operator (server/ledger/autoApproval.ts).
   */
  autoApproveMax?: bigint | undefined;
  /** AUTO_APPROVE_HOURLY in minor units: what all members' withdrawals may have approved on request in an hour; default 10 × autoApproveMax. */
  autoApproveHourly?: bigint | undefined;
  /**
   * APPROVAL_QUORUM_ABOVE in minor units: above it a withdrawal's approval and an operator's adjustment need two
   * different operators (server/ops/withdrawalDecisions.ts); default DEFAULT_APPROVAL_QUORUM_ABOVE.
   */
  approvalQuorumAbove?: bigint | undefined;
  /**
   * The operators' policy's totals (server/ops/policy.ts; OPS_OPERATOR_DAY_TOTAL, OPS_MEMBER_DAY_TOTAL, OPS_ACT_CAP in
   * minor units); each defaults to a multiple of approvalQuorumAbove (defaultPolicyLimits).
   */
  policyLimits?: Partial<Omit<PolicyLimits, 'perAct'>> | undefined;
  /** Fault tests only (OPS_FAULT_AT): told of each step of an operator's act (server/ops/operatorAct.ts). */
  onOperatorActStep?: ((step: OperatorActStep) => void) | undefined;
  /**
   * The payer of withdrawals (server/chain/payer/), with a chain: PAYER_KEY, this instance's name for the lease,
   * whether it runs on its own timer (main.ts, unless PAYER=off) and the options tests and faults set.
   */
  payer?: (Pick<PayerOptions, 'key' | 'holder'> & Partial<Pick<PayerOptions, 'pollMs' | 'leaseMs' | 'gasLimit' | 'stuckAfterMs' | 'batch' | 'onStep'>> & { timer?: boolean }) | undefined;
  /**
   * READY_MAX_LAG_MS (server/health/readiness.ts): how old the chain's head, and the payer's and watcher's last
   * successful rounds, may be while the instance is ready; 0 reports them without failing readiness. Default 60 s.
   */
  readyMaxLagMs?: number | undefined;
  /** METRICS_ALLOW: who may read GET /metrics (addresses and CIDR ranges); default loopback (server/metrics/route.ts). */
  metricsAllow?: string | undefined;
  /**
   * The scheduled reconcile, with a chain: this instance's name for its lease, how often (RECONCILE_EVERY_MS, default
   * a minute) and whether it runs on its timer (main.ts: yes; tests call app.reconcileRound()).
   */
  reconcile?: { holder?: string; everyMs?: number; timer?: boolean } | undefined;
  /**
   * The alerts (server/alerts/): their thresholds (ALERT_* settings), the webhooks each event goes to with the secret
   * that signs it (ALERT_WEBHOOK_URLS, ALERT_WEBHOOK_SECRET), and whether the deliveries run on their timer (main.ts).
   * Judged after each scheduled reconcile, so only with a chain.
   */
  alerts?: { thresholds?: Partial<AlertThresholds>; webhookUrls?: readonly string[]; secret?: string; deliveryTimer?: boolean; fetch?: typeof fetch } | undefined;
}

/** Fastify's trustProxy from ours: a hop count becomes the function Fastify's types ask for. */
function fastifyTrustProxy(trustProxy: BuildAppOptions['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  // Array.isArray narrows a readonly array to any[]; the one object trustProxy can be is the list of addresses.
  if (typeof trustProxy === 'object') return [...trustProxy];
  return trustProxy === true;
}

/** READY_MAX_LAG_MS unless set: a minute (BSC makes a block every 3 s, Ethereum every 12 s). */
export const DEFAULT_READY_MAX_LAG_MS = 60_000;

/** APPROVAL_QUORUM_ABOVE unless set: 1000 CREDIT. */
export const DEFAULT_APPROVAL_QUORUM_ABOVE = 1000_000000n;

/** AUTO_APPROVE_HOURLY unless set: this many members' daily budgets. */
const DEFAULT_HOURLY_BUDGETS = 10n;

const DEFAULT_RATE_LIMITS: RouteDeps['rateLimits'] = {
  loginNonce: { max: 30, timeWindow: 60_000 },
  memberSignLogin: { max: 10, timeWindow: 60_000 },
  // Per member (the top-up sheet asks every 3 s: 20 a minute per open sheet).
  topUp: { max: 60, timeWindow: 60_000 },
};

/** What an app needs only once the database is migrated and the chain's settings are checked (main.ts): the chain, and the rounds and timers that run on them. */
export type AppStartOptions = Pick<BuildAppOptions, 'chain' | 'topUpWatcher' | 'payer' | 'payoutTimer' | 'teamCountFold' | 'reconcile'>;

/** An app built but not started: no chain, no round and no timer yet (prepareApp). */
export interface PreparedApp {
  app: FastifyInstance;
  /**
   * Connects the chain; once, before the app listens or answers. It adds no route, hook or decoration, so the app
   * may be ready() before it (main.ts readies it while the database opens). Its rounds and timers start with startTimers(),
   * which main.ts calls once listening, so that their first rounds do not delay the first answer; not once stopping.
   */
  start(late: AppStartOptions): { startTimers(): void };
}

/**
 * Builds the server and starts it at once (tests; main.ts prepares it while the database opens, ADR 0029).
 *
 * @param options - database and policy knobs
 * @returns the Fastify instance (not listening)
 * @example
 * const app = await buildApp({ db: database.db });
 * const res = await app.inject({ method: 'GET', url: '/api/dapp/dappParam' });
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const prepared = await prepareApp(options);
  prepared.start(options).startTimers();
  return prepared.app;
}

/**
 * Builds the server: zod validation and serialization from api-schema, the envelope error handler, security
 * headers, access control, rate limits, the API routes, the SPA and the locales; the chain and the timers wait for
 * start(). Nothing here reads the database: main.ts builds it while the database opens and migrates (ADR 0029).
 *
 * @param options - database (its queries may wait for its open) and policy knobs
 * @returns the Fastify instance (not listening) and its start
 * @example
 * const { app, start } = await prepareApp({ db: database.db });
 * start({ chain, topUpWatcher: { startBlock, timer: true } });
 */
export async function prepareApp(options: Omit<BuildAppOptions, keyof AppStartOptions>): Promise<PreparedApp> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? 16 * 1024,
    requestTimeout: options.requestTimeout ?? 30_000,
    trustProxy: fastifyTrustProxy(options.trustProxy),
    genReqId: () => randomUUID(),
    // Dot segments, control characters, bad escapes and overlong targets go to one route that answers 4xx.
    rewriteUrl: (request) => routeOddTargets(request.url ?? '/'),
    // What Node's parser refuses (a 64 KiB URL: 431) is answered with the envelope too.
    clientErrorHandler: answerClientError,
    // A request that arrives on an open connection while the server closes is served (answered with Connection:
    // close), not refused with a 503: readiness has already taken the instance out (docs/operations.md, "Health and
    // stopping").
    return503OnClosing: false,
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installSecurityHeaders(app);
  installOddTargetRoute(app);

  // The request id travels back so a member reporting a 5000 can quote it, and the log line can be found.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installDeskPort(app, options.deskOnOwnPort === true);
  const metrics = createAppMetrics();
  installHttpMetrics(app, metrics);
  app.decorate('metrics', metrics);

  const signInSites = new SignInSites(configuredSites({ siweDomain: options.siweDomain, publicUrl: options.publicUrl }));
  app.decorate('signInSites', signInSites);
  app.decorate('operatorActStep', options.onOperatorActStep ?? null);
  if (!signInSites.configured) {
    // The embedded start: the addresses it listens on are its sites (every interface address on 0.0.0.0).
    app.addHook('onListen', async () => {
      signInSites.addListenSites(listenSites(app.addresses(), networkInterfaces()));
    });
  }

  const ledger = createLedgerBatcher(options.db, { maxInFlight: LEDGER_BATCHES_IN_FLIGHT });
  const autoApproveMax = options.autoApproveMax ?? 0n;
  const deps: RouteDeps = {
    db: options.db,
    now: options.now ?? systemClock,
    metrics,
    signInSites,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    nonces: createNonceIssuer(options.db, options.batchesInFlight ?? 1),
    sessions: createSessionStarter(options.db, options.batchesInFlight ?? 1),
    binds: createBinder(options.db, options.batchesInFlight ?? 1),
    signInsAtOnce: options.signInsAtOnce ?? SIGN_INS_AT_ONCE.pglite,
    payouts: options.payouts ?? {},
    tokens: createTokenResolver(options.db, options.batchesInFlight ?? 1),
    operators: createOperatorResolver(options.db, options.batchesInFlight ?? 1),
    ledger,
    settlementInputs: createSettlementInputsReader(options.db, options.batchesInFlight ?? 1),
    // A frozen member's withdrawal is never approved on request (server/members/freezes.ts).
    autoApproval: unlessFrozen(
      options.db,
      createAutoApproval({
        db: options.db,
        ledger,
        budget: { perMemberDay: autoApproveMax, perHour: options.autoApproveHourly ?? DEFAULT_HOURLY_BUDGETS * autoApproveMax },
      }),
      options.batchesInFlight ?? 1,
    ),
    approvalQuorumAbove: options.approvalQuorumAbove ?? DEFAULT_APPROVAL_QUORUM_ABOVE,
    policy: operatorsPolicy({ ...defaultPolicyLimits(options.approvalQuorumAbove ?? DEFAULT_APPROVAL_QUORUM_ABOVE), ...definedOf(options.policyLimits) }),
  };

  const businessFigures = registerBusinessGauges(metrics, {
    db: deps.db,
    now: deps.now,
    approvalQuorumAbove: deps.approvalQuorumAbove,
    chain: () => (deps.chain ? { chain: deps.chain.chain, payer: deps.chain.payer?.health(), watcher: deps.chain.watcher.health() } : undefined),
  });
  app.decorate('businessFigures', businessFigures);
  let reconcileRound = async (): Promise<ReconcileRun | undefined> => undefined;
  app.decorate('reconcileRound', () => reconcileRound());
  app.decorate('payerRound', () => deps.chain?.payer?.round() ?? Promise.resolve(undefined));
  const alertOptions = {
    thresholds: { ...DEFAULT_ALERT_THRESHOLDS, ...definedOf(options.alerts?.thresholds) },
    webhookUrls: options.alerts?.webhookUrls ?? [],
    externalUrl: options.publicUrl?.split(',')[0]?.trim() ?? '',
  };
  const deliveries = { db: deps.db, now: deps.now, secret: options.alerts?.secret ?? '', fetch: options.alerts?.fetch };
  app.decorate('deliverAlerts', () => (alertOptions.webhookUrls.length > 0 ? deliverDueAlerts(deliveries) : Promise.resolve({ delivered: 0, failed: 0 })));
  const deliveryLoop = alertOptions.webhookUrls.length > 0 && options.alerts?.deliveryTimer ? alertDeliveryLoop(deliveries, (error) => app.log.warn({ err: error }, 'alert delivery round failed; the next round tries again')) : undefined;
  registerMetricsRoute(app, metrics, metricsAllowList(options.metricsAllow ?? DEFAULT_METRICS_ALLOW));

  // The payer's and watcher's rounds, for readiness and for beginStop(); start() fills them in.
  const rounds: ReadinessOptions['rounds'] & object = {};
  let stopRounds = async (): Promise<void> => undefined;
  let stopPayoutTimer = async (): Promise<void> => undefined;
  let stopRetention = async (): Promise<void> => undefined;
  let stopTeamCountFold = async (): Promise<void> => undefined;
  // The timers stop at once; each waits for its round under way (beginStop() and close() alike).
  app.addHook('onClose', async () => {
    await Promise.all([stopPayoutTimer(), stopRetention(), stopTeamCountFold(), stopRounds()]);
  });
  // Read at each probe: the chain is set by start().
  const readinessOptions: ReadinessOptions = { db: deps.db, now: deps.now, rounds, maxLagMs: options.readyMaxLagMs ?? DEFAULT_READY_MAX_LAG_MS };
  const readiness = createReadiness(readinessOptions);
  let started = false;

  const start = (late: AppStartOptions): { startTimers(): void } => {
    if (started) throw new Error('the app has started already');
    started = true;
    const timers: (() => void)[] = [];
    if (late.chain) {
      const watcher = createTopUpWatcher({
        db: deps.db,
        chain: late.chain,
        now: deps.now,
        startBlock: late.topUpWatcher?.startBlock,
        pollMs: late.topUpWatcher?.pollMs,
        onError: (error) => app.log.warn({ err: error }, 'top-up watcher round failed; the next round starts from the cursor'),
      });
      const payer = late.payer
        ? createPayer({
            ...late.payer,
            db: deps.db,
            chain: late.chain,
            now: deps.now,
            onError: (error) => app.log.warn({ err: error }, 'payer round failed; the next round goes on from what is stored'),
            // Money lost for the operator to settle (reconcile's lostPayments): a posted payment the chain no longer has
            // (its stored bytes go out again) or has as reverted, or a refunded one mined after all (`paidAfterVoid`).
            onLost: (lost) => app.log.error({ withdrawalId: lost.withdrawalId.toString(), hash: lost.hash, reason: lost.reason }, 'a payment is lost'),
            // The chain shows what the database does not know (server/chain/payer/journal.ts): nothing is signed.
            onHalt: (reason) => (reason ? app.log.error({ payouts: 'halted' }, reason) : app.log.info({ payouts: 'resumed' }, 'payouts resumed: the chain and the database agree')),
            // Payouts paused on doubt (server/chain/payer/pause.ts) until two finance operators resume them.
            chainStaleSeconds: alertOptions.thresholds.chainStaleSeconds,
            onPause: (pause) => app.log.error({ payouts: 'paused', pauseId: pause.id.toString(), causes: pause.causes }, 'payouts paused on doubt'),
          })
        : undefined;
      // The routes read deps.chain at each request (Fastify hands each plugin this same object).
      deps.chain = { chain: late.chain, watcher, payer };
      readinessOptions.chain = late.chain;
      if (late.topUpWatcher?.timer) timers.push(() => watcher.start());
      if (payer && late.payer?.timer) timers.push(() => payer.start());
      rounds.topUpWatcher = watcher.health;
      rounds.payer = payer?.health;
      rounds.payoutsHalted = payer ? () => { const journal = payer.journal(); return journal ? haltReason(journal) : null; } : undefined;
      const schedule = reconcileSchedule({
        db: deps.db,
        chain: late.chain,
        payer,
        now: deps.now,
        holder: late.reconcile?.holder ?? randomUUID(),
        everyMs: late.reconcile?.everyMs ?? DEFAULT_RECONCILE_EVERY_MS,
        onError: (error) => app.log.warn({ err: error }, 'scheduled reconcile failed; the next round runs again'),
        afterRun: async () => {
          for (const event of await judgeAlerts(deps.db, await businessFigures(), alertOptions, deps.now())) {
            app.log[event.event === 'firing' ? 'error' : 'info']({ alert: event.rule, event: event.event, description: event.description }, `alert ${event.rule} ${event.event}`);
          }
        },
      });
      reconcileRound = schedule.round;
      if (late.reconcile?.timer) timers.push(() => schedule.start());
      if (deliveryLoop) timers.push(() => deliveryLoop.start());
      stopRounds = async () => {
        await Promise.all([watcher.stop(), payer?.stop(), schedule.stop(), deliveryLoop?.stop()]);
      };
    }
    // Every instance folds waiting binds into the team counts (server/members/teamCounts.ts); reads never wait for it.
    if (late.teamCountFold) {
      timers.push(() => {
        stopTeamCountFold = startTeamCountFold(deps.db, (error) => app.log.warn({ err: error }, 'team count fold failed; the next round folds again'));
      });
    }
    if (late.payoutTimer) {
      timers.push(() => {
        stopPayoutTimer = startPayoutTimer(deps.db, deps.now, (error) => app.log.error({ err: error }, 'share-pool payout failed'), deps.payouts);
        // The hourly retention sweep (server/retention.ts) runs beside the payout's timer, on the same instances.
        const retention = retentionTimer(deps.db, deps.now, (error) => app.log.warn({ err: error }, 'retention sweep failed; the next hour sweeps again'));
        retention.start();
        stopRetention = retention.stop;
      });
    }
    return {
      startTimers: () => {
        if (readiness.stopping) return;
        for (const startTimer of timers.splice(0)) startTimer();
      },
    };
  };

  app.decorate('beginStop', async () => {
    readiness.beginStop();
    await Promise.all([stopPayoutTimer(), stopRetention(), stopTeamCountFold(), stopRounds()]);
  });
  // Every answer sent while it stops closes its connection (requests begun before included): a keep-alive client's
  // next request opens a new connection, which the balancer sends to another instance, and close() is left no
  // connection that a client keeps idle for the keep-alive timeout (72 s).
  app.addHook('onSend', async (_request, reply) => {
    if (readiness.stopping) reply.header('connection', 'close');
  });

  await installCompression(app);
  // global: false — only routes that ask (the sign-in calls, topUp) are limited, keyed by request.ip (X-Forwarded-For
  // with trustProxy) unless the route says otherwise. On PostgreSQL the counters are the database's, shared by every
  // instance behind a load balancer; in memory each instance would allow the limit again.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new TooManyRequestsError(),
    ...(options.rateLimitStore === 'database' ? { store: databaseRateLimitStore(deps.db, deps.now) } : {}),
  });
  installAccessControl(app, deps);

  // Which signer recovery sign-in uses, said once as the server starts (docs/operations.md, "Smart accounts and signer
  // recovery"; ADR 0028).
  const recovery = await signerRecovery();
  if (recovery.engine === 'libsecp256k1') app.log.info({ signerRecovery: recovery.engine }, 'sign-in recovers signers with libsecp256k1 (native)');
  else app.log.warn({ signerRecovery: recovery.engine, reason: recovery.fallbackReason }, 'the secp256k1 binding did not load: sign-in recovers signers with viem in worker threads');

  await app.register(healthRoutes, { readiness });
  await app.register(authRoutes, deps);
  await app.register(memberRoutes, deps);
  await app.register(moneyRoutes, deps);
  await app.register(wposRoutes, deps);
  await app.register(dappRoutes, deps);
  await app.register(buyRoutes, deps);
  // Operator calls are always there; who may make them is the access hook's (docs/API.md, "Operators").
  await app.register(opsRoutes, deps);
  await app.register(opsMoneyRoutes, deps);
  await app.register(opsTopUpsRoutes, deps);
  await app.register(opsFinanceRoutes, deps);
  await app.register(opsContentRoutes, deps);
  await app.register(opsOrdersRoutes, deps);
  await app.register(opsPolicyRoutes, deps);
  await app.register(opsPayerRoutes, deps);
  registerAtlas(app, options.atlasDir === null ? null : (options.atlasDir ?? path.join(repoRoot(), 'docs', 'atlas')));
  await registerStatic(app, {
    spaDir: options.spaDir === undefined ? path.join(repoRoot(), 'dist', 'spa') : options.spaDir,
    localesDir: options.localesDir ?? path.join(repoRoot(), 'locales'),
  });
  return { app, start };
}

export type { RateLimitRule };

/** The fields that are set (an option left undefined keeps its default). */
function definedOf<T extends object>(values: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== undefined)) as Partial<T>;
}
