/**
 * The app's own role on PostgreSQL (server/db/roles.ts): an owner role migrates and grants, the app's role logs in
 * and may add and read audit rows but not change, erase or unguard them, while the app's other writes work. Runs only
 * when DATABASE_URL is set (.ci/with-postgres.sh): its superuser makes the two roles and drops them after.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openDatabase, type Database } from '../../server/db/client';
import { oneRoleWarning } from '../../server/db/roles';
import { recordAudit } from '../../server/ops/audit';
import { seed } from '../../server/seed/seed';
import { databaseUrl, onAdminConnection } from '../support/postgresTemplate';
import { createTestClock } from './support/testClock';
import { postgresUrl } from './support/databases';
import { accounts, authHeaders, buildMessage, envelope, postSignLogin, requestNonce, TEST_DOMAIN } from './support/memberSignIn';

/** A login role's URL on DATABASE_URL's server, for one database. */
function loginUrl(baseUrl: string, role: string, password: string, database: string): string {
  const url = new URL(databaseUrl(baseUrl, database));
  url.username = role;
  url.password = password;
  return url.toString();
}

/** The error a statement failed with, or a failure of the test when it ran. */
async function refusal(client: pg.Client, statement: string): Promise<{ code?: string; message: string }> {
  try {
    await client.query(statement);
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error(`not refused: ${statement}`);
}

// PGlite has one role: nothing to grant there. The skipped suite's name says why it did not run.
const skipReason = postgresUrl ? '' : ' (skipped: PostgreSQL only, and DATABASE_URL is unset; .ci/with-postgres.sh sets it)';

describe.skipIf(!postgresUrl)(`the app on a role of its own (DATABASE_MIGRATION_URL)${skipReason}`, () => {
  const baseUrl = postgresUrl ?? '';
  const suffix = randomBytes(5).toString('hex');
  const ownerRole = `md_owner_${suffix}`;
  const appRole = `md_app_${suffix}`;
  const databaseName = `md_roles_${suffix}`;
  // A skipped describe is still collected: no URL to build on then.
  const ownerUrl = postgresUrl ? loginUrl(baseUrl, ownerRole, randomBytes(12).toString('hex'), databaseName) : '';
  const appUrl = postgresUrl ? loginUrl(baseUrl, appRole, randomBytes(12).toString('hex'), databaseName) : '';
  const clock = createTestClock();
  let database: Database | undefined;
  let asApp: pg.Client | undefined;
  let app: FastifyInstance | undefined;

  beforeAll(async () => {
    // Neither is a superuser: the owner owns the database, as a deployer's would; the app's role is only a login.
    await onAdminConnection(baseUrl, `CREATE ROLE ${ownerRole} LOGIN PASSWORD '${new URL(ownerUrl).password}'`);
    await onAdminConnection(baseUrl, `CREATE ROLE ${appRole} LOGIN PASSWORD '${new URL(appUrl).password}'`);
    await onAdminConnection(baseUrl, `CREATE DATABASE ${databaseName} OWNER ${ownerRole}`);
    database = await openDatabase({ url: appUrl, migrationUrl: ownerUrl, poolSize: 3 });
    // A first start on an empty database, and two instances starting at once after it: the grants run each time.
    await database.migrate();
    const second = await openDatabase({ url: appUrl, migrationUrl: ownerUrl, poolSize: 1 });
    try {
      await Promise.all([database.migrate(), second.migrate()]);
    } finally {
      await second.close();
    }
    await seed(database.db);
    asApp = new pg.Client({ connectionString: appUrl });
    await asApp.connect();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await asApp?.end();
    await database?.close();
    await onAdminConnection(baseUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await onAdminConnection(baseUrl, `DROP ROLE IF EXISTS ${appRole}`);
    await onAdminConnection(baseUrl, `DROP ROLE IF EXISTS ${ownerRole}`);
  });

  it('the owner migrated: the tables are its, the app role owns nothing', async () => {
    const { rows } = await (asApp as pg.Client).query<{ owner: string; app_owns: number }>(
      `SELECT pg_get_userbyid(relowner) AS owner,
              (SELECT count(*)::int FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)) AS app_owns
         FROM pg_class WHERE oid = 'audit_log'::regclass`,
    );
    expect(rows).toEqual([{ owner: ownerRole, app_owns: 0 }]);
  });

  it('the app role adds and reads audit rows', async () => {
    const db = (database as Database).db;
    const id = await recordAudit(db, {
      at: clock.now(),
      actorAddress: null,
      actorRoles: [],
      via: 'setting',
      action: 'appRoleTest',
      target: appRole,
      before: null,
      after: { ok: true },
      requestId: null,
      clientAddress: null,
    });
    const { rows } = await (asApp as pg.Client).query<{ action: string }>('SELECT action FROM audit_log WHERE id = $1', [id.toString()]);
    expect(rows).toEqual([{ action: 'appRoleTest' }]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE on audit_log by privilege, before the trigger is asked', async () => {
    const client = asApp as pg.Client;
    for (const statement of ["UPDATE audit_log SET action = 'rewritten'", 'DELETE FROM audit_log', 'TRUNCATE audit_log']) {
      const error = await refusal(client, statement);
      // The trigger raises 42501 too, with its own message: the privilege check's message says which refused.
      expect(error, statement).toMatchObject({ code: '42501', message: 'permission denied for table audit_log' });
    }
  });

  it('refuses to drop, disable or replace the trigger, or the table', async () => {
    const client = asApp as pg.Client;
    for (const statement of [
      'DROP TRIGGER audit_log_append_only ON audit_log',
      'ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only',
      'DROP TABLE audit_log',
    ]) {
      // PostgreSQL names it a relation for the trigger, a table for the table.
      expect(await refusal(client, statement), statement).toMatchObject({ code: '42501', message: expect.stringMatching(/^must be owner of (relation|table) audit_log$/) });
    }
    // No CREATE in the schema: neither the trigger's function replaced nor a table of its own.
    for (const statement of ['CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$', 'CREATE TABLE audit_log_copy (id int)']) {
      expect(await refusal(client, statement), statement).toMatchObject({ code: '42501', message: 'permission denied for schema public' });
    }
  });

  it('the app works as its role: a member signs in (nonce, member, session rows) and the readiness query answers', async () => {
    app = await buildApp({ now: clock.now, siweDomain: TEST_DOMAIN, spaDir: null, db: (database as Database).db });
    const nonce = await requestNonce(app, accounts.alice.address);
    const message = buildMessage(accounts.alice, nonce, clock.now());
    const signedIn = envelope<{ auth: string }>(await postSignLogin(app, { message, signature: await accounts.alice.signMessage({ message }), inviteCode: 'DEMO2026' }));
    expect(signedIn.code).toBe(0);
    const me = envelope<{ address: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(signedIn.result?.auth ?? '') }));
    expect(me).toMatchObject({ code: 0, result: { address: accounts.alice.address } });
    const ready = envelope<{ checks: { migrations: { ok: boolean } } }>(await app.inject({ method: 'GET', url: '/api/health/ready' }));
    expect(ready.result?.checks.migrations.ok).toBe(true);
  });

  it('takes back at the next start what was granted by hand, and refuses one a grant to PUBLIC would undo', async () => {
    const asOwner = databaseUrl(baseUrl, databaseName);
    await onAdminConnection(asOwner, `GRANT UPDATE, DELETE, TRUNCATE ON audit_log TO ${appRole}`);
    await (database as Database).migrate();
    const { rows } = await (asApp as pg.Client).query<{ privilege: string; held: boolean }>(
      `SELECT privilege, has_table_privilege('audit_log', privilege) AS held FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) AS privilege`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.privilege, row.held]))).toEqual({ SELECT: true, INSERT: true, UPDATE: false, DELETE: false, TRUNCATE: false });

    await onAdminConnection(asOwner, 'GRANT TRUNCATE ON audit_log TO PUBLIC');
    try {
      await expect((database as Database).migrate()).rejects.toThrow(`the app's role ${appRole} may still change audit_log after the grants`);
    } finally {
      await onAdminConnection(asOwner, 'REVOKE TRUNCATE ON audit_log FROM PUBLIC');
    }
  });

  it('refuses a start where the app role owns a table, saying how to hand it over', async () => {
    await onAdminConnection(databaseUrl(baseUrl, databaseName), `ALTER TABLE rate_limits OWNER TO ${appRole}`);
    const again = await openDatabase({ url: appUrl, migrationUrl: ownerUrl, poolSize: 1 });
    try {
      await expect(again.migrate()).rejects.toThrow(`owns 1 object(s) in this database (it ran the migrations before?): hand them to the owner once, as a superuser: REASSIGN OWNED BY "${appRole}" TO "${ownerRole}"`);
    } finally {
      await again.close();
      await onAdminConnection(databaseUrl(baseUrl, databaseName), `ALTER TABLE rate_limits OWNER TO ${ownerRole}`);
    }
  });

  it('refuses a migration URL that logs in as the app role itself', async () => {
    const same = await openDatabase({ url: appUrl, migrationUrl: appUrl, poolSize: 1 });
    try {
      await expect(same.migrate()).rejects.toThrow(`DATABASE_URL and DATABASE_MIGRATION_URL both connect as ${appRole}`);
    } finally {
      await same.close();
    }
  });
});

describe('oneRoleWarning', () => {
  it('behavior: warns on PostgreSQL with one role only', () => {
    expect(oneRoleWarning('node-postgres', undefined)).toMatch(/^one database role owns the tables and runs the app: the audit log is append-only by its trigger only/);
    expect(oneRoleWarning('node-postgres', 'postgres://owner@db/md')).toBeUndefined();
    expect(oneRoleWarning('pglite', undefined)).toBeUndefined();
  });
});
