/**
 * The embedded database opened before the compiled server's modules load (scripts/buildServer.ts's launcher; ADR
 * 0029): PGlite's worker loads its code, compiles its WebAssembly and opens the data folder, about 1 s of CPU, on the
 * second core while the request thread loads the 4.7 MB bundle, instead of after it. Only for a data folder that
 * already holds a database and no DATABASE_URL: a new database (initdb) waits for the validated settings, as before.
 * This module imports nothing of the server's but the worker's client, so the launcher loads it in milliseconds.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PgliteThread, type WorkerLossOutcome } from './pgliteThread';

/** DATA_DIR unless set (server/env.ts's default). */
export const DEFAULT_DATA_DIR = './data';

type LossHandler = (error: Error, next: WorkerLossOutcome) => void;

export interface EarlyPglite {
  /** The data folder (DATA_DIR/pglite, absolute) the worker opens. */
  folder: string;
  /** The client, once its database is ready; rejects as PgliteThread.open does. */
  thread: Promise<PgliteThread>;
  /** Who is told of a lost worker from now on (main.ts's onDatabaseLost); a loss told before is told to it at once. */
  onLost(handler: LossHandler): void;
  /** Closes the database (after its open ends) when the server does not use it: its settings were refused. */
  abandon(): Promise<void>;
}

/**
 * The PGlite folder of a start's settings: DATA_DIR (empty: the default) under which PGlite keeps `pglite/`.
 *
 * @example pgliteFolder('./data') // /abs/path/data/pglite
 */
export const pgliteFolder = (dataDir: string | undefined): string => path.resolve(dataDir || DEFAULT_DATA_DIR, 'pglite');

/**
 * Starts opening the database that DATA_DIR already holds, when the settings name no DATABASE_URL.
 *
 * @param source - the environment, not yet validated (server/env.ts validates it after the bundle loads)
 * @returns the opening database, or undefined (PostgreSQL, or no database in the folder yet)
 * @example
 * const early = openExistingPgliteEarly(process.env);
 */
export function openExistingPgliteEarly(source: Record<string, string | undefined>): EarlyPglite | undefined {
  if (source.DATABASE_URL) return undefined;
  const folder = pgliteFolder(source.DATA_DIR);
  if (!existsSync(path.join(folder, 'PG_VERSION'))) return undefined;
  let handler: LossHandler | undefined;
  const told: [Error, WorkerLossOutcome][] = [];
  const thread = PgliteThread.open(folder, {
    onLost: (error, next) => {
      if (handler) handler(error, next);
      else told.push([error, next]);
    },
  });
  // Awaited by the server's start, which fails with this error; until then it is not an unhandled rejection.
  thread.catch(() => undefined);
  return {
    folder,
    thread,
    onLost: (next) => {
      handler = next;
      for (const [error, outcome] of told.splice(0)) next(error, outcome);
    },
    abandon: async () => {
      const client = await thread.catch(() => undefined);
      await client?.close();
    },
  };
}
