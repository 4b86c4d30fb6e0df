/**
 * Point-in-time recovery as docs/deploy/backups.md says to run it, with the repository's scripts (scripts/pg-pitr/):
 * a cluster archiving its WAL through archive-wal.sh, a base backup by base-backup.sh (checked by pg_verifybackup),
 * writes before and after a moment, and restore-pitr.sh into an empty folder to that moment: the cluster it starts
 * holds what was committed by then and nothing after. Root and Debian's PostgreSQL, as the failover run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../server/chain/anvil';
import { repoRoot } from '../balancer/support/processes';

const pgBin = spawnSync('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1'], { encoding: 'utf8' }).stdout.trim();
const missing = process.getuid?.() !== 0 ? 'not root' : pgBin === '' ? 'PostgreSQL is not installed' : null;
if (missing) console.warn(`point-in-time recovery: skipped here: ${missing}`);

/** A command as the postgres user. */
const asPostgres = (command: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync('runuser', ['-u', 'postgres', '--', 'env', ...Object.entries(env).map(([key, value]) => `${key}=${value}`), command, ...args], { encoding: 'utf8' });

describe.skipIf(missing !== null)('point-in-time recovery with scripts/pg-pitr', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'md-pitr-'));
  const stops: string[] = [];
  afterAll(() => {
    for (const data of stops) spawnSync('runuser', ['-u', 'postgres', '--', path.join(pgBin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
    rmSync(folder, { recursive: true, force: true });
  });

  it('behavior: restores a base backup and the archived WAL to a moment: what was committed by then, nothing after', { timeout: 120_000 }, async () => {
    chownSync(folder, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })));
    const [port, restoredPort] = [await freePort(), await freePort()];
    const data = path.join(folder, 'data');
    const wal = path.join(folder, 'wal');
    asPostgres(path.join(pgBin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres']);
    execFileSync('runuser', ['-u', 'postgres', '--', 'sh', '-c', `cat >> ${data}/postgresql.conf`], {
      input: [`port = ${port}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${folder}'`, 'wal_level = replica', 'archive_mode = on', `archive_command = '${repoRoot}/scripts/pg-pitr/archive-wal.sh %p %f ${wal}'`].join('\n'),
    });
    asPostgres(path.join(pgBin, 'pg_ctl'), ['-D', data, '-l', path.join(folder, 'log'), '-w', 'start']);
    stops.push(data);
    const psql = (at: number, query: string) => asPostgres(path.join(pgBin, 'psql'), ['-h', '127.0.0.1', '-p', String(at), '-U', 'postgres', '-Atc', query]).trim();
    psql(port, 'CREATE TABLE t (n int)');
    psql(port, 'INSERT INTO t VALUES (1)');
    const backups = path.join(folder, 'base');
    expect(asPostgres(`${repoRoot}/scripts/pg-pitr/base-backup.sh`, [], { BACKUP_DIR: backups, PGHOST: '127.0.0.1', PGPORT: String(port), PGUSER: 'postgres', PG_BIN: pgBin })).toMatch(/base backup: /);
    psql(port, 'INSERT INTO t VALUES (2)');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const moment = psql(port, 'SELECT clock_timestamp()');
    await new Promise((resolve) => setTimeout(resolve, 200));
    psql(port, 'INSERT INTO t VALUES (3)');
    const segment = psql(port, 'SELECT pg_walfile_name(pg_switch_wal())');
    // The segment holding all three is archived before the primary is lost (else the moment is past the archive's end).
    for (let waited = 0; waited < 200 && psql(port, 'SELECT coalesce(last_archived_wal, \'\') FROM pg_stat_archiver') < segment; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
    asPostgres(path.join(pgBin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);

    const base = path.join(backups, execFileSync('ls', [backups], { encoding: 'utf8' }).trim().split('\n')[0] ?? '');
    const restored = path.join(folder, 'restored');
    const started = performance.now();
    asPostgres(`${repoRoot}/scripts/pg-pitr/restore-pitr.sh`, [base, wal, restored, moment]);
    execFileSync('runuser', ['-u', 'postgres', '--', 'sh', '-c', `cat >> ${restored}/postgresql.auto.conf`], { input: `port = ${restoredPort}\n` });
    try {
      asPostgres(path.join(pgBin, 'pg_ctl'), ['-D', restored, '-l', path.join(folder, 'restored.log'), '-w', 'start']);
    } catch (error) {
      throw new Error(`the restored cluster did not start: ${readFileSync(path.join(folder, 'restored.log'), 'utf8').slice(-1500)}`, { cause: error });
    }
    stops.push(restored);
    for (let waited = 0; waited < 100 && psql(restoredPort, 'SELECT pg_is_in_recovery()') !== 'f'; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(psql(restoredPort, "SELECT string_agg(n::text, ',' ORDER BY n) FROM t")).toBe('1,2');
    console.log(`point-in-time recovery: restored to ${moment} and promoted in ${Math.round(performance.now() - started)} ms`);
  });
});
