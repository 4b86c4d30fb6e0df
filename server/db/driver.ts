/**
 * Which database a server runs on: PGlite in the process, or PostgreSQL through node-postgres. A module of its own,
 * read by client.ts, which opens the database, and by roles.ts, whose grants client.ts runs, so that those two do not
 * import each other.
 */
export type DatabaseDriver = 'pglite' | 'node-postgres';
