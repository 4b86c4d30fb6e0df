/** The first admin: OPS_FIRST_ADMIN's act, the demo operator of a development start, and `npm run ops` (and `ops:prod`). */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { desc } from 'drizzle-orm';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeEach, expect, it } from 'vitest';
import { WELL_KNOWN_DEV_KEYS } from '../../server/chain/wellKnownKeys';
import { DEV_DEPLOYER_KEY, DEV_PAYER_KEY, DEV_TREASURY_KEY } from '../../server/chain/devChain';
import { auditLog } from '../../server/db/schema';
import { addOperatorsAtStart } from '../../server/main';
import { runOpsCli } from '../../server/ops/cli';
import { DEMO_OPERATOR_ADDRESS, DEMO_OPERATOR_KEY, seedDemoOperator } from '../../server/ops/demoOperator';
import { addFirstAdmin, listOperators } from '../../server/ops/operators';
import { openScratchPostgres, postgresUrl } from './support/databases';
import { describeWithDatabases, resetDatabase } from './support/harness';
import { signInOperator } from './support/testOperators';
import { accounts } from './support/memberSignIn';
import { copyPgliteTemplate } from '../support/pgliteTemplate';
import { removeTestTreasury } from '../support/treasury';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');

async function cli(db: Parameters<typeof runOpsCli>[1]['db'], ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOpsCli(args, { db, now: new Date('2026-11-22T12:00:00.000Z'), out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

describeWithDatabases('the first admin', (ctx) => {
  // From no operator at all, as a deployment's first start: not even the test treasury every reset adds.
  beforeEach(() => removeTestTreasury(ctx.db));
  const setting = { at: new Date('2026-11-22T11:00:00.000Z'), actorAddress: null, actorRoles: [], via: 'setting' as const, requestId: null, clientAddress: null };

  it('OPS_FIRST_ADMIN makes an admin while there is none, once, audited as the setting’s act; they sign in', async () => {
    expect(await addFirstAdmin(ctx.db, accounts.alice.address, setting)).toBe(true);
    expect(await addFirstAdmin(ctx.db, accounts.bob.address, setting)).toBe(false);
    expect((await listOperators(ctx.db)).map(({ address, roles }) => ({ address, roles }))).toEqual([{ address: accounts.alice.address, roles: ['admin'] }]);
    const [row] = await ctx.db.select().from(auditLog);
    expect(row).toMatchObject({ action: 'opsFirstAdmin', via: 'setting', actorAddress: null, target: accounts.alice.address });
    const app = await ctx.app();
    expect((await signInOperator(app, accounts.alice, ctx.clock.now())).operator.roles).toEqual(['admin']);
  });

  it('the demo operator is anvil’s account 9, none of the development chain’s own, and an admin of a fresh start', async () => {
    expect(DEMO_OPERATOR_KEY).toBe(WELL_KNOWN_DEV_KEYS[9]);
    expect(DEMO_OPERATOR_ADDRESS).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720');
    expect([DEV_DEPLOYER_KEY, DEV_TREASURY_KEY, DEV_PAYER_KEY]).not.toContain(DEMO_OPERATOR_KEY);
    expect(await seedDemoOperator(ctx.db, ctx.clock.now())).toBe(true);
    expect(await seedDemoOperator(ctx.db, ctx.clock.now())).toBe(false);
    const app = await ctx.app();
    const signedIn = await signInOperator(app, privateKeyToAccount(DEMO_OPERATOR_KEY), ctx.clock.now());
    expect(signedIn.operator).toEqual({ address: DEMO_OPERATOR_ADDRESS, roles: ['admin'] });
  });

  it('at start: the demo operator only on the development chain outside production; OPS_FIRST_ADMIN before it', async () => {
    const admins = async () => (await listOperators(ctx.db)).map((operator) => operator.address);
    await addOperatorsAtStart({ CHAIN_RPC_URL: ['https://rpc.example'], NODE_ENV: undefined, OPS_FIRST_ADMIN: undefined }, ctx.db);
    await addOperatorsAtStart({ CHAIN_RPC_URL: undefined, NODE_ENV: 'production', OPS_FIRST_ADMIN: undefined }, ctx.db);
    expect(await admins()).toEqual([]);
    await addOperatorsAtStart({ CHAIN_RPC_URL: undefined, NODE_ENV: undefined, OPS_FIRST_ADMIN: accounts.alice.address.toLowerCase() }, ctx.db);
    expect(await admins()).toEqual([accounts.alice.address]);
    await resetDatabase(ctx.db);
    await removeTestTreasury(ctx.db);
    await addOperatorsAtStart({ CHAIN_RPC_URL: undefined, NODE_ENV: undefined, OPS_FIRST_ADMIN: undefined }, ctx.db);
    expect(await admins()).toEqual([DEMO_OPERATOR_ADDRESS]);
    const [row] = await ctx.db.select().from(auditLog);
    expect(row).toMatchObject({ action: 'seedDemoOperator', via: 'seed', target: DEMO_OPERATOR_ADDRESS });
  });

  it('the CLI adds, lists and removes operators, audited as via cli, and keeps one admin', async () => {
    expect(await cli(ctx.db, 'add', accounts.alice.address.toLowerCase(), 'admin')).toEqual({ code: 0, out: [`${accounts.alice.address}  admin`], err: [] });
    expect((await cli(ctx.db, 'add', accounts.bob.address, 'support,finance')).out).toEqual([`${accounts.bob.address}  finance,support`]);
    // Added at the same instant: by address.
    expect((await cli(ctx.db, 'list')).out).toEqual([
      `${accounts.bob.address}  finance,support  added 2026-11-22T12:00:00.000Z`,
      `${accounts.alice.address}  admin  added 2026-11-22T12:00:00.000Z`,
    ]);
    expect(await cli(ctx.db, 'remove', accounts.alice.address)).toMatchObject({ code: 1, err: ['remove: that would leave no admin; add another admin first'] });
    expect(await cli(ctx.db, 'remove', accounts.bob.address)).toMatchObject({ code: 0 });
    expect(await cli(ctx.db, 'remove', accounts.bob.address)).toMatchObject({ code: 1, err: ['remove: not a current operator'] });
    for (const args of [[], ['add', accounts.carol.address], ['add', accounts.carol.address, 'boss'], ['add', 'nobody', 'admin'], ['remove']]) {
      expect((await cli(ctx.db, ...args)).code).toBe(2);
    }
    const rows = await ctx.db.select({ action: auditLog.action, via: auditLog.via }).from(auditLog).orderBy(desc(auditLog.id));
    expect(rows).toEqual([
      { action: 'cliRemove', via: 'cli' },
      { action: 'cliAdd', via: 'cli' },
      { action: 'cliAdd', via: 'cli' },
    ]);
  });
});

// The script itself, on PostgreSQL (a fresh PGlite data directory takes its whole migration, up to a minute on a busy
// CI machine; the same runOpsCli runs on PGlite above, and `npm run ops` opens a data directory as the server does).
it.runIf(postgresUrl)('npm run ops adds an operator on DATABASE_URL', { timeout: 60_000 }, async () => {
  const scratch = await openScratchPostgres(postgresUrl ?? '');
  try {
    const env = { ...process.env, DATABASE_URL: scratch.url };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', 'add', DEMO_OPERATOR_ADDRESS.toLowerCase(), 'admin'], { cwd: repoRoot, env });
    expect(stdout).toBe(`${DEMO_OPERATOR_ADDRESS}  admin\n`);
    expect((await listOperators(scratch.db)).map(({ address, roles }) => ({ address, roles }))).toEqual([{ address: DEMO_OPERATOR_ADDRESS, roles: ['admin'] }]);
  } finally {
    await scratch.close();
  }
});

// The compiled CLI (`npm run ops:prod`, built by `npm run build` and by the unit projects' globalSetup): node alone, no
// tsx and no loader, as a production install (`npm ci --omit=dev`) runs it, on a copy of the run's migrated PGlite.
it('npm run ops:prod (dist/server/opsCli.js) adds and lists operators with node alone', { timeout: 90_000 }, async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'md-ops-cli-'));
  try {
    await copyPgliteTemplate(dataDir);
    const { DATABASE_URL: _shared, NODE_OPTIONS: _loaders, ...inherited } = process.env;
    const env = { ...inherited, DATA_DIR: dataDir };
    const opsProd = (...args: string[]) => run(process.execPath, ['dist/server/opsCli.js', ...args], { cwd: repoRoot, env });
    expect((await opsProd('add', DEMO_OPERATOR_ADDRESS.toLowerCase(), 'admin')).stdout).toBe(`${DEMO_OPERATOR_ADDRESS}  admin\n`);
    expect((await opsProd('list')).stdout).toMatch(new RegExp(`^${DEMO_OPERATOR_ADDRESS}  admin  added \\S+\n$`));
    await expect(opsProd('remove')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('npm run ops:prod') });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
