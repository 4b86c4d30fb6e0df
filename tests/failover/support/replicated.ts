/**
 * A PostgreSQL primary with a synchronous standby for the failover run (docs/deploy/backups.md, "Failover without
 * loss"): two clusters of Debian's PostgreSQL in a folder of their own, run as the postgres user (the run is root's),
 * the primary acknowledging a commit only once `standby1` has flushed it (synchronous_standby_names, synchronous_commit
 * on). The servers reach the database through a TCP relay that stands for the database's address (a virtual IP, a
 * DNS name, HAProxy on Patroni's checks): failover() kills the primary with SIGKILL, promotes the standby and points
 * the address at it, cutting every connection open to the old one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../../server/chain/anvil';
import { atStop } from '../../balancer/support/processes';

const PG_BIN = (() => {
  const found = spawnSync('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1'], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('failover: PostgreSQL is not installed (apt-get install postgresql)');
  return found;
})();

/** Runs a PostgreSQL tool as the postgres user (PostgreSQL refuses to run as root). */
function asPostgres(tool: string, args: string[]): string {
  return execFileSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, tool), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface ReplicatedPostgres {
  /** The database's address as the servers see it (through the relay). */
  url: string;
  /** The primary of now, reached directly (the books' check). */
  directUrl(): string;
  /** Whether the primary reports `standby1` as its synchronous standby. */
  synchronous(): boolean;
  /** kill -9 of the primary, the standby promoted, the address pointed at it; the time each step took. */
  failover(): Promise<{ killMs: number; promoteMs: number }>;
}

const settings = (port: number, folder: string) =>
  [`port = ${port}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${folder}'`, 'max_connections = 100', 'wal_level = replica', 'max_wal_senders = 5', 'fsync = on'].join('\n');

/**
 * Starts the pair and the relay; everything is stopped and removed by the balancer's stopAll.
 *
 * @returns the address, the failover and the checks
 * @example
 * const pg = await startReplicatedPostgres();
 */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const folder = mkdtempSync(path.join(tmpdir(), 'md-failover-'));
  chownSync(folder, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()));
  const primary = path.join(folder, 'primary');
  const standby = path.join(folder, 'standby');
  const [primaryPort, standbyPort, addressPort] = [await freePort(), await freePort(), await freePort()];
  asPostgres('initdb', ['-D', primary, '-A', 'trust', '-U', 'postgres', '--encoding=UTF8', '--locale=C.UTF-8']);
  execFileSync('runuser', ['-u', 'postgres', '--', 'sh', '-c', `cat >> ${primary}/postgresql.conf`], {
    input: `${settings(primaryPort, folder)}\nsynchronous_standby_names = 'FIRST 1 (standby1)'\nsynchronous_commit = on\n`,
  });
  asPostgres('pg_ctl', ['-D', primary, '-l', path.join(folder, 'primary.log'), '-w', '-t', '60', 'start']);
  atStop(() => {
    spawnSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, 'pg_ctl'), '-D', primary, '-m', 'immediate', '-w', 'stop']);
  });
  asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standby, '-R', '-X', 'stream', '--checkpoint=fast']);
  execFileSync('runuser', ['-u', 'postgres', '--', 'sh', '-c', `cat >> ${standby}/postgresql.auto.conf`], { input: `port = ${standbyPort}\nunix_socket_directories = '${folder}'\ncluster_name = 'standby1'\n` });
  asPostgres('pg_ctl', ['-D', standby, '-l', path.join(folder, 'standby.log'), '-w', '-t', '60', 'start']);
  atStop(() => {
    spawnSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, 'pg_ctl'), '-D', standby, '-m', 'immediate', '-w', 'stop']);
    rmSync(folder, { recursive: true, force: true });
  });
  const psql = (port: number, query: string) => asPostgres('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-Atc', query]).trim();
  for (let attempt = 0; attempt < 100 && psql(primaryPort, "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby1'") !== 'sync'; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  psql(primaryPort, 'CREATE DATABASE member_dapp');

  // The database's address: a relay to whichever cluster is the primary now.
  let target = primaryPort;
  const open = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    open.add(client).add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(addressPort, '127.0.0.1', resolve));
  atStop(() => new Promise<void>((resolve) => relay.close(() => resolve())));
  const cutAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };

  return {
    url: `postgres://postgres@127.0.0.1:${addressPort}/member_dapp`,
    directUrl: () => `postgres://postgres@127.0.0.1:${target}/member_dapp`,
    synchronous: () => psql(target, "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby1'") === 'sync',
    failover: async () => {
      const began = performance.now();
      // The primary's machine is gone: its postmaster killed, its connections dead.
      const pid = Number(readFileSync(path.join(primary, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      cutAll();
      const killMs = performance.now() - began;
      asPostgres('pg_ctl', ['-D', standby, '-w', '-t', '60', 'promote']);
      // The new primary has no standby of its own yet: copied from the old one, synchronous_standby_names would make
      // every commit wait for ever. Patroni clears it too (synchronous_mode without _strict) until a standby joins.
      psql(standbyPort, "ALTER SYSTEM SET synchronous_standby_names = ''");
      psql(standbyPort, 'SELECT pg_reload_conf()');
      target = standbyPort;
      cutAll();
      return { killMs, promoteMs: performance.now() - began - killMs };
    },
  };
}
