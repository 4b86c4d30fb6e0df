/**
 * The server under test, in this process: a migrated and seeded database (PGlite in a temp dir, in its worker thread
 * as `npm start` runs it, or PostgreSQL at a URL), buildApp with the sign-in rate limits raised out of the way and the test treasury's operator key (tests/support/treasury.ts), listening on 127.0.0.1 (port chosen by
 * the OS). No SPA and no logger: the bench measures the API.
 */
import { SIGN_INS_AT_ONCE } from '../server/routes/auth';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { BATCHES_IN_FLIGHT } from '../server/ledger/batcher';
import { buildApp } from '../server/app';
import { getAppConfig } from '../server/config/appConfig';
import { openDatabase, type Database, type Db } from '../server/db/client';
import { seed } from '../server/seed/seed';
import { addTestTreasury } from '../tests/support/treasury';
import { fetchNonce, loopbackSite, postSignIn, signNonce, type SiteBinding } from './siwe';

/** Effectively no limit: buildApp's `rateLimits` option (defaults 30/min and 10/min per client). */
const UNLIMITED = { max: 1_000_000_000, timeWindow: 60_000 };

export interface BenchServer {
  app: FastifyInstance;
  db: Db;
  /** `PGlite (on disk)` or `PostgreSQL`. */
  storage: string;
  site: SiteBinding;
  /** Milliseconds of each start phase: open (PGlite initdb or pool), migrate, seed, build (buildApp + listen). */
  phases: { open: number; migrate: number; seed: number; build: number };
  /** Closes the server and the database and removes the temp dir. */
  close(): Promise<void>;
}

/**
 * Opens storage, migrates, seeds, builds and starts the server.
 *
 * @param storage - `url` for PostgreSQL; else PGlite in `dataDir` (kept: the caller owns it), else in a new
 *   temp dir (removed on close)
 * @returns the running server
 * @example
 * const server = await startBenchServer({});
 * try { ... } finally { await server.close(); }
 */
export async function startBenchServer(storage: { url?: string | undefined; dataDir?: string | undefined }): Promise<BenchServer> {
  const databaseUrl = storage.url;
  const ownDir = databaseUrl || storage.dataDir ? undefined : await mkdtemp(path.join(os.tmpdir(), 'bench-pglite-'));
  const dataDir = databaseUrl ? undefined : (storage.dataDir ?? ownDir);
  let database: Database | undefined;
  let app: FastifyInstance | undefined;
  const close = async (): Promise<void> => {
    try {
      if (app) await app.close();
    } finally {
      try {
        if (database) await database.close();
      } finally {
        if (ownDir) await rm(ownDir, { recursive: true, force: true });
      }
    }
  };
  try {
    let mark = performance.now();
    const lap = (): number => {
      const now = performance.now();
      const elapsed = now - mark;
      mark = now;
      return elapsed;
    };
    database = await openDatabase({ url: databaseUrl, dataDir });
    const open = lap();
    await database.migrate();
    const migrate = lap();
    await seed(database.db);
    const seeded = lap();
    // The ledger figure grants credit through the operator API, as the test treasury (a finance operator).
    await addTestTreasury(database.db);
    const config = await getAppConfig(database.db);
    app = await buildApp({
      db: database.db,
      spaDir: null,
      logger: false,
      rateLimits: { loginNonce: UNLIMITED, memberSignLogin: UNLIMITED },
      // As main.ts runs it: binds fold into the team counts in the background.
      teamCountFold: true,
      signInsAtOnce: SIGN_INS_AT_ONCE[database.driver],
      batchesInFlight: BATCHES_IN_FLIGHT[database.driver],
      // The ledger figure's grants are set-up: the operators' policy out of their way (one act alone up to 10^12, and
      // the 24-hour totals); the policy's cost is one advisory lock and one sum per act, not in the members' figures.
      approvalQuorumAbove: 10n ** 18n,
      policyLimits: { operatorDay: 10n ** 18n, memberDay: 10n ** 18n, cap: 10n ** 18n },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (typeof address !== 'object' || !address) throw new Error('server has no port');
    return {
      app,
      db: database.db,
      storage: databaseUrl ? 'PostgreSQL' : 'PGlite (on disk)',
      site: loopbackSite(address.port, config.chainId, config.siweStatement),
      phases: { open, migrate, seed: seeded, build: lap() },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Signs a new wallet in through HTTP with an invite code, so its token is a member token.
 *
 * @param site - the running server
 * @param inviteCode - e.g. the seeded DEMO2026
 * @returns the token
 * @throws when the member did not end up bound
 * @example
 * const token = await signInBoundMember(server.site, 'DEMO2026');
 */
export async function signInBoundMember(site: SiteBinding, inviteCode: string): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey());
  const nonce = await fetchNonce(site, account.address);
  const { auth, isFinishedBind } = await postSignIn(site, await signNonce(site, account, nonce), inviteCode);
  if (!isFinishedBind) throw new Error(`invite code ${inviteCode} did not bind the bench member`);
  return auth;
}
