/**
 * The app's role on PostgreSQL when the tables have an owner of their own (DATABASE_MIGRATION_URL): the owner runs the
 * migrations, then grants the app's role (DATABASE_URL's user) the rows it works with, and on audit_log only SELECT and
 * INSERT, so that no statement on the app's connections can change or erase history, nor drop the trigger that says so.
 *
 * The grants are not a migration: the app's role is a deployment's name, unknown when a migration is written, each new
 * table needs them again, and PGlite has no roles. So they run at every start, after the migrations, on the owner's
 * connection under the migration lock, and they set the same privileges however often they run.
 */
import type pg from 'pg';
import type { DatabaseDriver } from './driver';

/** The table whose rows are never changed: the app's role may only read and add them. */
const AUDIT_LOG = 'audit_log';

/** drizzle's migrator keeps what it applied here; the readiness check reads it (server/health/readiness.ts). */
const MIGRATIONS_SCHEMA = 'drizzle';

/**
 * The start's warning where one role owns the tables and runs the app (PostgreSQL without DATABASE_MIGRATION_URL):
 * that role may drop the trigger, so the audit log is append-only only while nobody does. PGlite is one process whose
 * database nobody else opens: no warning.
 *
 * @param driver - the database's driver
 * @param migrationUrl - DATABASE_MIGRATION_URL
 * @returns the log line's message, or undefined
 * @example
 * const warning = oneRoleWarning(database.driver, env.DATABASE_MIGRATION_URL);
 * if (warning) app.log.warn(warning);
 */
export function oneRoleWarning(driver: DatabaseDriver, migrationUrl: string | undefined): string | undefined {
  if (driver !== 'node-postgres' || migrationUrl !== undefined) return undefined;
  return 'one database role owns the tables and runs the app: the audit log is append-only by its trigger only, which that role may drop; set DATABASE_MIGRATION_URL to the owner (docs/operations.md, "PostgreSQL roles")';
}

/**
 * Whether a role can be the app's: not the owner itself, not a superuser, not a member of the owner (it could SET ROLE
 * to it), and owning nothing in this database (an owner may drop its tables' triggers, the database's owner the public
 * schema's tables). Run on the owner's connection before migrating, so that a database the app's role migrated before
 * is refused with what to do, not by the first migration that alters one of its tables.
 *
 * @param owner - a connection as the owner (DATABASE_MIGRATION_URL)
 * @param appRole - DATABASE_URL's role (its current_user)
 * @throws Error saying what is wrong and how to mend it
 * @example
 * await refuseUnsafeAppRole(owner, 'member_app');
 */
export async function refuseUnsafeAppRole(owner: pg.ClientBase, appRole: string): Promise<void> {
  const { rows } = await owner.query<{ owner_role: string; found: boolean; superuser: boolean; member_of_owner: boolean; owned: number }>(
    `SELECT current_user AS owner_role, r.oid IS NOT NULL AS found, coalesce(r.rolsuper, false) AS superuser,
            coalesce(pg_has_role(r.oid, current_user, 'MEMBER'), false) AS member_of_owner,
            (SELECT count(*)::int FROM pg_shdepend d, pg_database db
              WHERE db.datname = current_database() AND d.refclassid = 'pg_authid'::regclass AND d.refobjid = r.oid AND d.deptype = 'o'
                AND (d.dbid = db.oid OR (d.classid = 'pg_database'::regclass AND d.objid = db.oid))) AS owned
       FROM (SELECT 1) one LEFT JOIN pg_roles r ON r.rolname = $1`,
    [appRole],
  );
  const role = rows[0];
  if (!role?.found) throw new Error(`the app's role ${appRole} (DATABASE_URL) is not a role of this server`);
  if (role.owner_role === appRole) {
    throw new Error(`DATABASE_URL and DATABASE_MIGRATION_URL both connect as ${appRole}: give the app a role of its own (docs/operations.md, "PostgreSQL roles"), or unset DATABASE_MIGRATION_URL`);
  }
  if (role.superuser) throw new Error(`the app's role ${appRole} (DATABASE_URL) is a superuser, which no grant holds back: give the app a role of its own`);
  if (role.member_of_owner) throw new Error(`the app's role ${appRole} (DATABASE_URL) is a member of the owner ${role.owner_role}, so it may act as the owner: revoke that membership`);
  if (role.owned > 0) {
    throw new Error(
      `the app's role ${appRole} (DATABASE_URL) owns ${role.owned} object(s) in this database (it ran the migrations before?): hand them to the owner once, as a superuser: REASSIGN OWNED BY ${owner.escapeIdentifier(appRole)} TO ${owner.escapeIdentifier(role.owner_role)}`,
    );
  }
}

/**
 * Grants the app's role what the app does, after the migrations: SELECT, INSERT, UPDATE and DELETE on its tables, USAGE
 * on their sequences, EXECUTE on its functions (the ledger engine), SELECT on drizzle's migrations table; on audit_log
 * only SELECT and INSERT. Everything on the tables is revoked first, in the same transaction, so that a privilege given
 * by hand (TRUNCATE, UPDATE on audit_log) does not outlive a start. Then checks that the role cannot change audit_log
 * by any other way (a grant to PUBLIC or to a role it is in), or refuses the start.
 *
 * @param owner - a connection as the owner, migrated
 * @param appRole - DATABASE_URL's role, checked by refuseUnsafeAppRole
 * @throws Error when the role may still change audit_log
 * @example
 * await grantAppRole(owner, 'member_app');
 */
export async function grantAppRole(owner: pg.ClientBase, appRole: string): Promise<void> {
  const app = owner.escapeIdentifier(appRole);
  const schemas = `public, ${MIGRATIONS_SCHEMA}`;
  await owner.query('BEGIN');
  try {
    await owner.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${schemas} FROM ${app}`);
    await owner.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schemas} FROM ${app}`);
    await owner.query(`REVOKE CREATE ON SCHEMA ${schemas} FROM ${app}`);
    await owner.query(`GRANT USAGE ON SCHEMA ${schemas} TO ${app}`);
    await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${app}`);
    await owner.query(`REVOKE UPDATE, DELETE ON ${AUDIT_LOG} FROM ${app}`);
    await owner.query(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${app}`);
    await owner.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO ${app}`);
    await owner.query(`GRANT SELECT ON ${MIGRATIONS_SCHEMA}.__drizzle_migrations TO ${app}`);
    const { rows } = await owner.query<{ may_change: boolean; acts_as_owner: boolean }>(
      `SELECT has_table_privilege($1, c.oid, 'UPDATE') OR has_table_privilege($1, c.oid, 'DELETE') OR has_table_privilege($1, c.oid, 'TRUNCATE')
                OR has_table_privilege($1, c.oid, 'TRIGGER') AS may_change,
              pg_has_role($1, c.relowner, 'MEMBER') AS acts_as_owner
         FROM pg_class c WHERE c.oid = $2::regclass`,
      [appRole, `public.${AUDIT_LOG}`],
    );
    const audit = rows[0];
    if (!audit || audit.may_change || audit.acts_as_owner) {
      throw new Error(
        `the app's role ${appRole} may still change ${AUDIT_LOG} after the grants (its owner's member, or a grant to PUBLIC or to a role it is in): revoke that, then start again`,
      );
    }
    await owner.query('COMMIT');
  } catch (error) {
    await owner.query('ROLLBACK');
    throw error;
  }
}
