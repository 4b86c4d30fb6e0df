/**
 * Starts the reference server: environment, database (PGlite under DATA_DIR, or PostgreSQL at DATABASE_URL),
 * migrations, seed, then listen. Stops cleanly on SIGINT/SIGTERM so in-flight requests finish and the database
 * is closed (PGlite flushes its files on close).
 */
import { BATCHES_IN_FLIGHT } from './ledger/batcher';
import { buildApp } from './app';
import { openDatabase } from './db/client';
import { readEnv } from './env';
import { seed } from './seed/seed';

/**
 * Runs the server until a signal stops it.
 *
 * @param source - environment variables
 * @returns the listening URL once ready
 * @example
 * await main(process.env);
 */
export async function main(source: Record<string, string | undefined>): Promise<string> {
  const env = readEnv(source);
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  await database.migrate();
  await seed(database.db, { demoTeam: true });

  const app = await buildApp({
    db: database.db,
    siweDomain: env.SIWE_DOMAIN,
    publicUrl: env.PUBLIC_URL,
    trustProxy: env.TRUST_PROXY,
    logger: { level: env.LOG_LEVEL },
    adminToken: env.ADMIN_TOKEN,
    batchesInFlight: BATCHES_IN_FLIGHT[database.driver],
    payoutTimer: true,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    try {
      await app.close();
    } finally {
      await database.close();
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: env.PORT, host: env.HOST });
  const shownHost = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  const url = `http://${shownHost}:${port}`;
  const sites = app.signInSites.list().map((site) => site.host);
  app.log.info({ storage: database.driver, signInSites: sites }, `Member DApp listening on ${url}`);
  console.log(`Member DApp: ${url} (storage: ${database.driver === 'pglite' ? `PGlite in ${env.DATA_DIR}` : 'PostgreSQL'})`);
  // Sign-in works only at these (ADR 0007); with the defaults they include the machine's LAN addresses.
  console.log(`Sign-in sites: ${sites.join(', ')}${app.signInSites.configured ? '' : ' (and localhost at any port)'}`);
  return url;
}

// Run when started directly (node --import tsx server/main.ts), not when imported by a test.
if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.env).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
