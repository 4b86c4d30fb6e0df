/**
 * The real server for an e2e run: buildApp on 127.0.0.1 with an OS-chosen port, on a scratch PostgreSQL database when
 * the run has one, else PGlite in a fresh temp DATA_DIR (a copy of the run's migrated and seeded template,
 * tests/support/pgliteTemplate.ts), serving the API, the built SPA and /locales from one origin.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../../server/app';
import { openDatabase } from '../../../server/db/client';
import { fundDemoAccounts, seed } from '../../../server/seed/seed';
import { patchAppConfig } from '../../../server/config/appConfig';
import { startTestChain, TEST_NODE_CHAIN_ID, type TestChain } from '../../server/support/testChain';
import { ensureSpaBuilt, spaDir } from './build';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { toMinor } from '../../../api-schema/amount';
import { seedDemoOperator } from '../../../server/ops/demoOperator';
import { copyPgliteTemplate } from '../../support/pgliteTemplate';
import { addTestTreasury } from '../../support/treasury';
import { openScratchPostgres, postgresUrl } from '../../server/support/databases';

export interface TestServer {
  /** Origin the browser opens, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** The temp DATA_DIR; removed by stop(). */
  dataDir: string;
  /** The test node, when the server was started with one (StartServerOptions.chain). */
  chain?: TestChain;
  /** Closes the server and the database, then removes the temp DATA_DIR. */
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /**
   * The test treasury (tests/support/treasury.ts): a finance operator with a fixed API key, for the journeys that
   * fund members through the operator API (treasuryCall).
   */
  treasury?: boolean;
  /**
   * Credit on chain: a test node (anvil, tests/server/support/testChain.ts) with the token, named in the app config
   * (chain id, RPC URL, token, treasury, 2 confirmations), and the top-up watcher and the payer on timers (fastRounds).
   */
  chain?: boolean;
  /** AUTO_APPROVE_MAX in CREDIT with a chain; default '1000' (the development chain's). */
  autoApproveMax?: string;
  /** APPROVAL_QUORUM_ABOVE in CREDIT; default the server's (1000). */
  approvalQuorumAbove?: string;
  /**
   * Seed the demo operator (docs/operations.md, "Operators": anvil account 9) as an admin, as `npm start` does on a
   * fresh clone.
   */
  demoOperator?: boolean;
  /** PGlite, the embedded default of `npm start`, even when the run has PostgreSQL (DATABASE_URL). */
  embedded?: boolean;
  /**
   * With a chain: the top-up watcher and the payer round every 250 ms, for journeys that wait on them (default); with
   * false, at the server's own pauses (2 s and 1 s), for files that move no money on chain (the visual checks). An idle
   * server's fast rounds cost about an eighth of a core (measured: 2.5 s of CPU in 20 s on PGlite).
   */
  fastRounds?: boolean;
}

/**
 * Starts the server for one spec file on a database of its own, so every file starts from the seed and a run leaves
 * nothing behind: a scratch PostgreSQL database next to DATABASE_URL's when the run has one (dropped by stop()),
 * else (or with `embedded`) PGlite in a temp folder.
 *
 * @returns the listening server
 * @example
 * const server = await startServer();
 * await page.goto(`${server.url}/login/DEMO2026`);
 * await server.stop();
 */
export async function startServer({ treasury = false, chain: withChain = false, autoApproveMax = '1000', approvalQuorumAbove, demoOperator = false, embedded = false, fastRounds = true }: StartServerOptions = {}): Promise<TestServer> {
  await ensureSpaBuilt();
  const testChain = withChain ? await startTestChain({ confirmations: 2 }) : undefined;
  // The hot wallet that pays withdrawals: a key of its own, funded with the token and gas.
  const payerKey = generatePrivateKey();
  if (testChain) await testChain.fund(privateKeyToAccount(payerKey).address, '100000');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'member-dapp-e2e-'));
  // PostgreSQL when the run has it (npm test on CI): a file's server on PGlite spent about a third of the file's CPU
  // in PGlite's WebAssembly (visual.zh: 80 s of CPU on PGlite, 51 s on PostgreSQL, its server included; ADR 0026).
  const scratchUrl = embedded ? undefined : postgresUrl;
  if (scratchUrl === undefined) await copyPgliteTemplate(dataDir);
  const database = scratchUrl === undefined ? await openDatabase({ dataDir }) : await openScratchPostgres(scratchUrl, { migrated: true });
  try {
    await database.migrate();
    await seed(database.db);
    // The share pools pay, and WPOS sells back to credit, from funded accounts: the demo's funds, as npm start has.
    await fundDemoAccounts(database.db);
    if (demoOperator) await seedDemoOperator(database.db, new Date());
    if (treasury) await addTestTreasury(database.db);
    if (testChain) {
      await patchAppConfig(database.db, {
        chainId: TEST_NODE_CHAIN_ID,
        chain: { chainName: 'Test chain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: [testChain.node.url], blockExplorerUrls: ['https://explorer.example'] },
        token: testChain.chain.token,
        treasury: testChain.treasury,
        confirmations: testChain.chain.settings.confirmations,
      });
    }
    const app = await buildApp({
      db: database.db,
      spaDir,
      ...(approvalQuorumAbove === undefined ? {} : { approvalQuorumAbove: toMinor(approvalQuorumAbove) }),
      // The treasury's grants are the journeys' set-up: the operators' policy's 24-hour totals out of their way.
      policyLimits: { operatorDay: toMinor('1000000000'), memberDay: toMinor('1000000000') },
      // Every phone of a file comes from 127.0.0.1: its members would share one client's sign-in limits (10 a minute),
      // which members on their own addresses never do, and a file's later journeys would get 4290. The limits
      // themselves are tested in tests/server/rateLimits.test.ts and auth.test.ts.
      rateLimits: { loginNonce: { max: 300, timeWindow: 60_000 }, memberSignLogin: { max: 100, timeWindow: 60_000 } },
      ...(testChain
        ? {
            chain: testChain.chain,
            topUpWatcher: { startBlock: testChain.deployBlock, timer: true, ...(fastRounds ? { pollMs: 250 } : {}) },
            autoApproveMax: toMinor(autoApproveMax),
            payer: { key: payerKey, holder: 'e2e', timer: true, ...(fastRounds ? { pollMs: 250 } : {}) },
          }
        : {}),
    });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
    } catch (error) {
      await app.close();
      throw error;
    }
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error(`unexpected server address: ${String(address)}`);
    const port = address.port;
    let stopped = false;
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      dataDir,
      ...(testChain ? { chain: testChain } : {}),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        try {
          await app.close();
        } finally {
          await database.close();
          await testChain?.stop();
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    await testChain?.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
