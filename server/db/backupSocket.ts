/**
 * `npm run backup` while the server runs on PGlite (docs/operations.md, "Backups and restore"): PGlite is one
 * process's, so the backup asks that process for its snapshot over a Unix socket in DATA_DIR (`backup.sock`, mode 0600:
 * whoever may read DATA_DIR may take it, as they could copy the folder). The socket answers one call, POST /backup,
 * with the snapshot's bytes (server/db/backup.ts); it moves no money and changes nothing.
 */
import { chmod, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import type { Database } from './client';

/** The socket's path under DATA_DIR. */
export const backupSocketPath = (dataDir: string): string => path.resolve(dataDir, 'backup.sock');

/**
 * Listens for backups on DATA_DIR's socket (a socket left by a process that died is replaced).
 *
 * @param database - the server's PGlite
 * @param dataDir - DATA_DIR
 * @param log - told of each backup taken, and of a failed one
 * @returns close()
 * @example
 * const socket = await listenForBackups(database, env.DATA_DIR, app.log);
 */
export async function listenForBackups(database: Pick<Database, 'dump'>, dataDir: string, log: { info(fields: object, message: string): void; error(fields: object, message: string): void }): Promise<{ close(): Promise<void> }> {
  const file = backupSocketPath(dataDir);
  await rm(file, { force: true });
  const server: Server = createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/backup' || !database.dump) {
      response.writeHead(404).end();
      return;
    }
    const started = performance.now();
    database.dump().then(
      (bytes) => {
        log.info({ bytes: bytes.byteLength, ms: Math.round(performance.now() - started) }, 'backup taken');
        response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.byteLength }).end(bytes);
      },
      (error: unknown) => {
        log.error({ err: error }, 'backup failed');
        response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  await chmod(file, 0o600);
  return {
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(file, { force: true });
    },
  };
}

/**
 * Asks the server running on DATA_DIR for its snapshot; undefined when none listens there.
 *
 * @param dataDir - DATA_DIR
 * @returns the snapshot's bytes, or undefined
 * @throws when a server answers but fails the backup
 * @example
 * const bytes = await requestBackup('./data');
 */
export function requestBackup(dataDir: string): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const call = httpRequest({ socketPath: backupSocketPath(dataDir), path: '/backup', method: 'POST' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve(new Uint8Array(Buffer.concat(chunks))) : reject(new Error(`the server answered the backup with ${response.statusCode}`))));
      response.on('error', reject);
    });
    // No socket, or one nobody listens on (a server that died): no server runs there.
    call.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? resolve(undefined) : reject(error)));
    call.end();
  });
}

/**
 * Whether a server listens on DATA_DIR's socket now (a restore refuses to replace a running server's database).
 *
 * @param dataDir - DATA_DIR
 * @returns true when something accepts a connection there
 * @example
 * if (await serverListens('./data')) process.exit(1);
 */
export function serverListens(dataDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(backupSocketPath(dataDir));
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
