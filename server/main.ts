/**
 * Starts the reference server: environment, database (PGlite under DATA_DIR, or PostgreSQL at DATABASE_URL),
 * migrations, seed, then listen. Stops cleanly on SIGINT/SIGTERM (docs/operations.md, "Health and stopping"): readiness
 * answers 503 at once and the payer's and watcher's timers stop, requests are still served for SHUTDOWN_DRAIN_MS, then
 * no new connection is taken, the requests under way and the rounds under way end, the database is closed (PGlite
 * flushes its files on close) and the process exits with code 0.
 */
import { SIGN_INS_AT_ONCE } from './routes/auth';
import { BATCHES_IN_FLIGHT } from './ledger/batcher';
import { prepareApp } from './app';
import { listenForBackups } from './db/backupSocket';
import { beginOpenDatabase } from './db/client';
import { pgliteFolder, type EarlyPglite } from './db/earlyPglite';
import { synchronousStandbyWarning } from './db/replication';
import { oneRoleWarning } from './db/roles';
import type { WorkerLossOutcome } from './db/pgliteThread';
import { atlasServed, developmentChainAsked, readEnv, seedKind, type ServerEnv } from './env';
import { rootInviter, seed } from './seed/seed';
import { addFirstAdmin } from './ops/operators';
import { seedDemoOperator } from './ops/demoOperator';
import { getAddress } from 'viem';
import { SEED_TEAM } from './seed/content';
import { connectChain, startChainReads, type Chain, type ChainReads } from './chain/chain';
import { redactUrl } from './chain/rpcUrls';
import { keepHeadAsFirstCursor } from './chain/topUpWatcher';
import { DEV_CHAIN_ID, DEV_PAYER_KEY, startDevChain, type DevChain } from './chain/devChain';
import { toMinor } from '../api-schema/amount';
import { Server } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { hostname } from 'node:os';
import { failedStartLine, logLine } from './logLine';

/** How long a connection made just before the server stopped listening has to send its request. */
const LAST_REQUESTS_MS = 250;

/** AUTO_APPROVE_MAX on the development chain unless set. */
const DEV_AUTO_APPROVE_MAX = '1000';

/** PAYER_FAULT_AT, OPS_FAULT_AT, PAYOUT_FAULT_AT (fault tests only): the process kills itself (SIGKILL, as kill -9) when the payer, an operator's act or a payout reaches that step. */
function faultAt<Step extends string>(step: Step | undefined): ((reached: Step) => void) | undefined {
  if (!step) return undefined;
  return (reached) => {
    if (reached === step) process.kill(process.pid, 'SIGKILL');
  };
}
import { getAppConfig, patchAppConfig } from './config/appConfig';
import type { Db } from './db/client';

interface ChainStart {
  chain: Chain;
  startBlock: bigint;
  stop(): Promise<void>;
  /** What the start prints. */
  summary: string;
}

/**
 * The chain's part of a start that needs no database, begun before the database opens (the two run at once): the
 * configured node's reads (the chain id, the token's decimals and symbol), or the development chain's node.
 */
type ChainBegun =
  | { kind: 'configured'; reads: ChainReads; rpcUrls: string[]; token: `0x${string}`; treasury: `0x${string}` }
  | { kind: 'development'; dev: Promise<DevChain> };

/**
 * Begins the app's chain (docs/API.md, "Credit on chain"): CHAIN_RPC_URL with TOKEN_ADDRESS and TREASURY_ADDRESS; or,
 * only when asked (developmentChainAsked: DEV_CHAIN=on, or no chain setting outside production), the development
 * chain (server/chain/devChain.ts). Nothing is checked yet: startChain does, and refuses the start.
 */
function beginChain(env: ServerEnv): ChainBegun {
  if (env.CHAIN_RPC_URL && env.TOKEN_ADDRESS && env.TREASURY_ADDRESS) {
    const token = env.TOKEN_ADDRESS as `0x${string}`;
    return { kind: 'configured', reads: startChainReads(env.CHAIN_RPC_URL, token), rpcUrls: env.CHAIN_RPC_URL, token, treasury: env.TREASURY_ADDRESS as `0x${string}` };
  }
  // readEnv refuses any other case; this is the last guard before a development chain rewrites the app config.
  if (!developmentChainAsked(env)) throw new Error('no chain settings, and the development chain was not asked for (README, "Run it")');
  const dev = startDevChain({ dataDir: env.DATA_DIR, port: env.DEV_CHAIN_PORT, blockTime: env.DEV_CHAIN_BLOCK_TIME, fund: SEED_TEAM.map((member) => member.address as `0x${string}`) });
  // Awaited by startChain or abandonChain; until then a failure is not an unhandled rejection.
  dev.catch(() => undefined);
  return { kind: 'development', dev };
}

/** What the chain's kind decides before it is checked, so the app is built while the database opens. */
interface ChainPolicy {
  /** The hot wallet's key: PAYER_KEY, or the development chain's treasury. */
  payerKey: `0x${string}` | undefined;
  /** AUTO_APPROVE_MAX in minor units. */
  autoApproveMax: bigint;
}

function chainPolicy(env: ServerEnv, begun: ChainBegun): ChainPolicy {
  if (begun.kind === 'configured') return { payerKey: env.PAYER_KEY as `0x${string}` | undefined, autoApproveMax: toMinor(env.AUTO_APPROVE_MAX ?? '0') };
  // The development chain pays from its own hot wallet and approves up to 1000 on request, so a demo withdrawal is
  // paid with no operator (docs/operations.md, "Credit on chain: paying withdrawals").
  return { payerKey: (env.PAYER_KEY ?? DEV_PAYER_KEY) as `0x${string}`, autoApproveMax: toMinor(env.AUTO_APPROVE_MAX ?? DEV_AUTO_APPROVE_MAX) };
}

/** Stops what beginChain started, when the start fails before startChain (the database did not open). */
async function abandonChain(begun: ChainBegun): Promise<void> {
  if (begun.kind === 'development') await (await begun.dev.catch(() => undefined))?.node.stop();
}

/**
 * Connects the app's chain, begun by beginChain: the configured node must report the app config's chainId; the
 * development chain's id, node and token the app config then names. Either way dappParam announces the token,
 * treasury and confirmations. What it prints names the RPC URLs without path, query or user info (they carry API keys).
 */
async function startChain(env: ServerEnv, db: Db, begun: ChainBegun): Promise<ChainStart> {
  if (begun.kind === 'configured') {
    const { chainId } = await getAppConfig(db);
    // A database the development chain ran on holds that chain's id, node and token in its app config (dappParam's)
    // and balances credited from that token: it is never moved to another chain (docs/operations.md, "A real chain").
    const nodeChainId = await begun.reads.chainId.catch(() => undefined);
    if (chainId === DEV_CHAIN_ID && nodeChainId !== undefined && nodeChainId !== DEV_CHAIN_ID) {
      throw new Error(
        `CHAIN_RPC_URL reports chain ${nodeChainId}, but this database ran the development chain (${DEV_CHAIN_ID}): its balances came from that chain's token and dappParam names that chain, so a real chain starts on a new database (an empty DATA_DIR, or a new DATABASE_URL): refusing to start`,
      );
    }
    const chain = await connectChain({ rpcUrls: begun.rpcUrls, token: begun.token, treasury: begun.treasury, confirmations: env.CONFIRMATIONS, chainId }, begun.reads);
    await patchAppConfig(db, { token: chain.token, treasury: chain.settings.treasury, confirmations: chain.settings.confirmations });
    // Without TOP_UP_START_BLOCK the watcher reads after the head of its first start, kept as its cursor now.
    const startBlock = env.TOP_UP_START_BLOCK ?? (await keepHeadAsFirstCursor(db, chain)) + 1n;
    return { chain, startBlock, stop: async () => undefined, summary: `chain ${chainId} at ${begun.rpcUrls.map(redactUrl).join(', ')}, token ${chain.token.address} (${chain.token.decimals} decimals), treasury ${chain.settings.treasury}` };
  }
  const dev = await begun.dev;
  try {
    const chain = await connectChain(dev.settings);
    await patchAppConfig(db, {
      chainId: DEV_CHAIN_ID,
      chain: { chainName: 'Member DApp dev chain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: [dev.node.url] },
      token: chain.token,
      treasury: chain.settings.treasury,
      confirmations: chain.settings.confirmations,
    });
    return {
      chain,
      startBlock: dev.startBlock,
      stop: () => dev.node.stop(),
      summary: `development chain ${DEV_CHAIN_ID} at ${dev.node.url}${dev.deployed ? ' (new: token deployed, demo members funded)' : ''}, token ${chain.token.symbol} ${chain.token.address}, treasury ${chain.settings.treasury}`,
    };
  } catch (error) {
    await dev.node.stop();
    throw error;
  }
}

/**
 * Runs the server until a signal stops it.
 *
 * @param source - environment variables
 * @returns the listening URL once ready
 * @example
 * await main(process.env);
 */
export async function main(source: Record<string, string | undefined>, early?: EarlyStart): Promise<string> {
  // Milliseconds from the process's start to each step, logged once listening (docs/operations.md, "Production").
  const startMs: Record<string, number> = {};
  const reached = (step: string): void => {
    startMs[step] = Math.round(performance.now());
  };
  reached('modules');
  let env: ServerEnv;
  try {
    env = readEnv(source);
  } catch (error) {
    // Refused settings: the database the launcher began to open is closed, not left to the exit.
    await early?.pglite?.abandon();
    throw error;
  }
  // Filled in once the server is built: a database lost before that has no server to stop.
  const server: { app?: FastifyInstance; stop(reason: string, drainMs: number): Promise<void> } = { stop: async () => undefined };
  const onLost = onDatabaseLost({
    log: (level, fields, message) => (server.app ? server.app.log[level](fields, message) : console.error(logLine(level === 'fatal' ? 60 : 50, message, fields))),
    // A lost database serves nothing: no drain.
    stop: (reason) => server.stop(reason, 0),
    exit: (code) => process.exit(code),
  });
  const opening = (await earlyDatabase(early, env, onLost))?.thread;
  // The chain's node is read (or the development chain started) while the database opens, migrates and seeds.
  const chainBegun = beginChain(env);
  const policy = chainPolicy(env, chainBegun);
  // The socket `npm run backup` asks for PGlite's snapshot on, once listening (closed before the database).
  let backups: { close(): Promise<void> } | undefined;
  const database = beginOpenDatabase({ url: env.DATABASE_URL, migrationUrl: env.DATABASE_MIGRATION_URL, dataDir: env.DATA_DIR, onLost, opening });
  // The app is built on the request thread while PGlite's worker opens the database (ADR 0029): nothing in it reads
  // the database, and its chain, rounds and timers start only once the database is migrated and the chain checked.
  const preparing = prepareApp({
    db: database.db,
    siweDomain: env.SIWE_DOMAIN,
    publicUrl: env.PUBLIC_URL,
    trustProxy: env.TRUST_PROXY,
    deskOnOwnPort: env.OPS_PORT !== undefined,
    atlasDir: atlasServed(env) ? undefined : null,
    logger: { level: env.LOG_LEVEL },
    batchesInFlight: BATCHES_IN_FLIGHT[database.driver],
    // PostgreSQL may have several instances: their rate limits count in the database, one limit for all.
    rateLimitStore: database.driver === 'node-postgres' ? 'database' : 'memory',
    signInsAtOnce: env.SIGN_INS_AT_ONCE ?? SIGN_INS_AT_ONCE[database.driver],
    autoApproveMax: policy.autoApproveMax,
    autoApproveHourly: env.AUTO_APPROVE_HOURLY === undefined ? undefined : toMinor(env.AUTO_APPROVE_HOURLY),
    approvalQuorumAbove: env.APPROVAL_QUORUM_ABOVE === undefined ? undefined : toMinor(env.APPROVAL_QUORUM_ABOVE),
    policyLimits: {
      operatorDay: env.OPS_OPERATOR_DAY_TOTAL === undefined ? undefined : toMinor(env.OPS_OPERATOR_DAY_TOTAL),
      memberDay: env.OPS_MEMBER_DAY_TOTAL === undefined ? undefined : toMinor(env.OPS_MEMBER_DAY_TOTAL),
      cap: env.OPS_ACT_CAP === undefined ? undefined : toMinor(env.OPS_ACT_CAP),
    },
    readyMaxLagMs: env.READY_MAX_LAG_MS,
    metricsAllow: env.METRICS_ALLOW,
    alerts: {
      webhookUrls: env.ALERT_WEBHOOK_URLS,
      secret: env.ALERT_WEBHOOK_SECRET,
      deliveryTimer: true,
      thresholds: {
        runwayDays: env.ALERT_RUNWAY_DAYS,
        approvalWaitSeconds: env.ALERT_APPROVAL_WAIT_SECONDS,
        watcherBehindBlocks: env.ALERT_WATCHER_BEHIND_BLOCKS,
        chainStaleSeconds: env.ALERT_CHAIN_STALE_SECONDS,
      },
    },
    onOperatorActStep: faultAt(env.OPS_FAULT_AT),
    payouts: { batch: env.SHARE_POOL_PAYOUT_BATCH, onBatch: env.PAYOUT_FAULT_AT ? () => faultAt(env.PAYOUT_FAULT_AT)?.('afterBatch') : undefined },
  }).then(async (prepared) => {
    // Fastify's last steps (its route tables, every route's schemas compiled, about 0.1 s) while the database opens
    // too: start() adds no route, hook or decoration, so the app may be ready before it starts.
    await prepared.app.ready();
    return prepared;
  });
  // Awaited below; a start that fails first closes it (abandonStart).
  preparing.catch(() => undefined);
  const abandonStart = async () => {
    await (await preparing.catch(() => undefined))?.app.close();
    await abandonChain(chainBegun);
  };
  try {
    await database.opened;
    reached('database');
    await database.migrate();
    reached('migrations');
    // SEED=minimal (production's default): the deployment's own root inviter and nothing of the demo. Else the demo,
    // its downline (fixed addresses nobody holds keys to) only beside the development chain.
    const minimal = seedKind(env) === 'minimal' && env.ROOT_INVITER_ADDRESS ? { rootInviter: env.ROOT_INVITER_ADDRESS, inviteCode: env.ROOT_INVITE_CODE } : undefined;
    await seed(database.db, minimal ? { minimal } : { demoTeam: developmentChainAsked(env) });
    reached('seed');
  } catch (error) {
    await abandonStart();
    throw error;
  }
  const chainStart = await startChain(env, database.db, chainBegun);
  reached('chain');
  const operatorsAdded = await addOperatorsAtStart(env, database.db);

  const { app, start } = await preparing;
  // The start's own lines, at info whatever LOG_LEVEL says (a child logger has its level): a deployment at `warn`
  // still logs where it listens, on which chain and storage, and who was added.
  const startLog = app.log.child({}, { level: 'info' });
  for (const line of operatorsAdded) startLog.info({ operators: 'added' }, line);
  const root = await rootInviter(database.db);
  if (root) startLog.info({ rootInviter: root.address, inviteCode: root.inviteCode, seed: seedKind(env) }, `Root inviter: ${root.address}, invite code ${root.inviteCode} (members join at /login/${root.inviteCode})`);
  const oneRole = oneRoleWarning(database.driver, env.DATABASE_MIGRATION_URL);
  if (oneRole) app.log.warn(oneRole);
  // Told once the database answers, without holding the start up for it.
  void synchronousStandbyWarning(database.db, database.driver).then((warning) => (warning ? app.log.warn(warning) : undefined), () => undefined);
  const { startTimers } = start({
    payoutTimer: true,
    teamCountFold: true,
    chain: chainStart.chain,
    topUpWatcher: { startBlock: chainStart.startBlock, timer: true, pollMs: env.CHAIN_POLL_MS },
    // The lease's holder is the instance (host and port), not the process: a restarted server takes its own lease back
    // at once instead of waiting for it to expire. Two processes under one name would both pay, still each
    // withdrawal once (nonces are handed out under the lease row's lock, moves are the engine's): the lease only
    // keeps the others idle.
    payer: policy.payerKey
      ? { key: policy.payerKey, holder: `${hostname()}:${env.PORT}`, timer: env.PAYER === 'on', pollMs: env.CHAIN_POLL_MS, onStep: faultAt(env.PAYER_FAULT_AT) }
      : undefined,
    reconcile: { holder: `${hostname()}:${env.PORT}`, everyMs: env.RECONCILE_EVERY_MS, timer: true },
  });

  // One stop, whoever asks first: a second caller waits for the same one.
  let stopped: Promise<void> | undefined;
  const stop = (signal: string, drainMs: number): Promise<void> => {
    stopped ??= (async () => {
      app.log.info({ signal, drainMs }, 'stopping');
      // Readiness answers 503 from now on (the balancer takes this instance out) and no new round starts.
      const roundsEnded = app.beginStop();
      try {
        // Requests are still served while the balancer notices. Then no new connection is taken, but those just
        // made have a moment to send their request, which is served (Node's close() would cut them as idle); then
        // close() finishes the requests under way (each answered with Connection: close) and waits for the rounds.
        if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
        app.deskPort?.stopListening();
        if (app.server.listening) {
          Server.prototype.close.call(app.server);
          await new Promise((resolve) => setTimeout(resolve, LAST_REQUESTS_MS));
        }
        await app.close();
        await roundsEnded;
      } finally {
        await backups?.close().catch(() => undefined);
        await database.close();
        await chainStart.stop();
      }
    })();
    return stopped;
  };
  server.app = app;
  server.stop = stop;
  const stopOnSignal = (signal: string) => {
    // A request or a round that never ends must not keep a stopping server from exiting.
    setTimeout(() => {
      app.log.fatal({ signal, timeoutMs: env.SHUTDOWN_TIMEOUT_MS }, 'still stopping past SHUTDOWN_TIMEOUT_MS; exiting');
      process.exit(1);
    }, env.SHUTDOWN_DRAIN_MS + env.SHUTDOWN_TIMEOUT_MS).unref();
    stop(signal, env.SHUTDOWN_DRAIN_MS).then(
      () => {
        app.log.info({ signal }, 'stopped');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  // A second signal during the stop is the default's: the process ends at once (Ctrl-C twice).
  process.once('SIGINT', () => stopOnSignal('SIGINT'));
  process.once('SIGTERM', () => stopOnSignal('SIGTERM'));

  reached('app');
  // `npm run backup` asks this process for PGlite's snapshot (server/db/backupSocket.ts); PostgreSQL needs no help.
  if (database.driver === 'pglite') backups = await listenForBackups(database, env.DATA_DIR, app.log);
  await app.listen({ port: env.PORT, host: env.HOST });
  const desk = env.OPS_PORT === undefined ? undefined : await app.deskPort?.listen(env.OPS_PORT, env.HOST);
  reached('listening');
  // After listen: the rounds' first ticks (the chain's reads, the database's statements) would delay it.
  startTimers();
  const shownHost = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  const url = `http://${shownHost}:${port}`;
  const sites = app.signInSites.list().map((site) => site.host);
  // Every line is pino's JSON (one object a line, as the rest of the log): what a person reads is its `msg`.
  const storage = database.driver === 'pglite' ? `PGlite in ${env.DATA_DIR}` : 'PostgreSQL';
  startLog.info({ storage: database.driver, signInSites: sites, startMs, url }, `Member DApp: ${url} (storage: ${storage})`);
  if (desk) startLog.info({ deskPort: desk.port }, `Operators' desk: http://${shownHost}:${desk.port}/ops (only there: PORT answers 404 for it)`);
  startLog.info({ chainId: chainStart.chain.settings.chainId }, `Credit on chain: ${chainStart.summary}`);
  // Sign-in works only at these (ADR 0007); with the defaults they include the machine's LAN addresses.
  startLog.info({ signInSites: sites }, `Sign-in sites: ${sites.join(', ')}${app.signInSites.configured ? '' : ' (and localhost at any port)'}`);
  return url;
}

/** What the compiled server's launcher started before the server's modules loaded (scripts/buildServer.ts). */
export interface EarlyStart {
  /** The embedded database that DATA_DIR already holds, opening (server/db/earlyPglite.ts). */
  pglite?: EarlyPglite | undefined;
}

/**
 * The launcher's opening database, if it is the one the validated settings name (PGlite in DATA_DIR), with the
 * server's loss handling; any other is closed first, so that no two workers ever open one folder.
 */
export async function earlyDatabase(early: EarlyStart | undefined, env: ServerEnv, onLost: (error: Error, next: WorkerLossOutcome) => void): Promise<EarlyPglite | undefined> {
  const pglite = early?.pglite;
  if (!pglite) return undefined;
  if (env.DATABASE_URL || pglite.folder !== pgliteFolder(env.DATA_DIR)) {
    await pglite.abandon();
    return undefined;
  }
  pglite.onLost(onLost);
  return pglite;
}

/**
 * The first admin (docs/operations.md, "Operators"): OPS_FIRST_ADMIN while there is no admin; else, on the development
 * chain outside production, the demo operator (server/ops/demoOperator.ts), whose key is public, so never on a real
 * chain.
 *
 * @param env - the validated environment
 * @param db - database handle (migrated, seeded)
 * @returns what was added, a line each for the log
 * @example
 * for (const line of await addOperatorsAtStart(env, database.db)) app.log.info(line);
 */
export async function addOperatorsAtStart(env: Pick<ServerEnv, 'OPS_FIRST_ADMIN' | 'CHAIN_RPC_URL' | 'NODE_ENV'>, db: Db): Promise<string[]> {
  const now = new Date();
  const added: string[] = [];
  if (env.OPS_FIRST_ADMIN) {
    const context = { at: now, actorAddress: null, actorRoles: [], via: 'setting' as const, requestId: null, clientAddress: null };
    if (await addFirstAdmin(db, getAddress(env.OPS_FIRST_ADMIN), context)) added.push(`Operators: ${getAddress(env.OPS_FIRST_ADMIN)} is the first admin (OPS_FIRST_ADMIN)`);
  }
  if (!env.CHAIN_RPC_URL && env.NODE_ENV !== 'production' && (await seedDemoOperator(db, now))) {
    added.push('Operators: the demo operator (anvil account 9, docs/operations.md, "Operators") is an admin; sign in at /ops');
  }
  return added;
}

interface LossHandling {
  log: (level: 'error' | 'fatal', fields: Record<string, unknown>, message: string) => void;
  /** Stops the server as a signal does (or waits for the stop under way): requests in flight finish, then the database closes. */
  stop: (reason: string) => Promise<void>;
  exit: (code: number) => void;
  /** How long the stop may take before the process exits anyway; 10 s by default. */
  stopDeadlineMs?: number;
}

/**
 * What the server does when its embedded database's worker thread dies (server/db/pgliteThread.ts): a new worker
 * is starting, so it logs and goes on (the requests in flight were answered with an error); no worker can start,
 * so every request would fail: it stops and exits with code 1, for a supervisor (or the member running
 * `npm start`) to start it again.
 *
 * @param handling - the log, the server's stop and the process's exit
 * @returns the database's onLost
 * @example
 * const database = await openDatabase({ dataDir, onLost: onDatabaseLost({ log, stop, exit: process.exit }) });
 */
export function onDatabaseLost(handling: LossHandling): (error: Error, next: WorkerLossOutcome) => void {
  return (error, next) => {
    if (next === 'restarting') {
      handling.log('error', { err: error }, 'the database worker died; a new one is starting');
      return;
    }
    handling.log('fatal', { err: error }, 'the database worker died and no new one can start; stopping');
    const stopped = handling.stop('database lost').catch((stopError: unknown) => handling.log('error', { err: stopError }, 'stopping failed'));
    // A request that never ends must not keep a server without a database running.
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, handling.stopDeadlineMs ?? 10_000).unref());
    void Promise.race([stopped, deadline]).then(() => handling.exit(1));
  };
}

// Run when started directly (node --import tsx server/main.ts), not when imported by a test.
if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.env).catch((error: unknown) => {
    console.error(failedStartLine(error));
    process.exit(1);
  });
}
