/**
 * A database that cannot be reached (a PostgreSQL failover under way: the address names no server yet) answers the
 * documented 5031 with HTTP 503 and a translated message, never 5000; readiness says the database check failed.
 * A real node-postgres pool pointed at a port nothing listens on: the driver's own ECONNREFUSED.
 */
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { DrizzleQueryError } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import { openDatabase } from '../../server/db/client';
import { isDatabaseUnreachable } from '../../server/plugins/errorHandler';
import { TEST_DOMAIN } from './support/memberSignIn';

/** A loopback port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('a database that cannot be reached', () => {
  const closing: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });

  it('answers 5031 (HTTP 503) while it cannot be reached, and readiness names the database', async () => {
    const database = await openDatabase({ url: `postgres://member@127.0.0.1:${await closedPort()}/member_dapp`, poolSize: 1 });
    closing.push(() => database.close());
    const app = await buildApp({ db: database.db, now: () => new Date(), siweDomain: TEST_DOMAIN, spaDir: null });
    closing.push(() => app.close());
    const notices = await app.inject({ method: 'GET', url: '/api/dapp/aboutOur', headers: { 'accept-language': 'en' } });
    expect(notices.statusCode).toBe(503);
    expect(notices.json()).toMatchObject({ code: ApiCode.databaseUnavailable });
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ code: ApiCode.notReady, result: { failing: expect.arrayContaining(['database']) } });
  });

  it('reads the driver\'s error under drizzle\'s wrapper, as a transaction whose connection died at a failover throws it', () => {
    // node-postgres's own words for a client whose connection died, then its rollback refused; and a statement's failure.
    const died = new Error('Client has encountered a connection error and is not queryable');
    expect(isDatabaseUnreachable(new DrizzleQueryError('rollback', [], died))).toBe(true);
    expect(isDatabaseUnreachable(new DrizzleQueryError('select 1', [], Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })))).toBe(true);
    expect(isDatabaseUnreachable(new DrizzleQueryError('insert', [], Object.assign(new Error('duplicate key'), { code: '23505' })))).toBe(false);
  });
});
