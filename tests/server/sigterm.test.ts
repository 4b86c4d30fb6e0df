/**
 * SIGTERM under load (docs/operations.md, "Health and stopping"): the compiled server
 * (`npm run start:prod`) with its development chain and its payer, on PGlite in a temp DATA_DIR and on PostgreSQL
 * when the run has it. Members and an operator send a stream of requests at once (grants, exchanges and withdrawals,
 * each with a request id, and reads) while readiness is polled; SIGTERM arrives in the middle. Readiness answers 503
 * first while requests are still served (SHUTDOWN_DRAIN_MS), then the server takes no new connection, finishes the
 * requests under way and the payer's and watcher's rounds, closes the database and exits 0. No answer is a 5xx; every
 * request is answered, or fails to reach the server at all, and then it did nothing (its request id is not in the
 * database); every request id answered is there; the books balance.
 */
import { randomUUID } from 'node:crypto';
import { expect, vi } from 'vitest';
import { openDatabase, queryRows } from '../../server/db/client';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { expectBooksBalanced } from './support/testLedger';
import { apiCaller, describeOnEveryStorage, prepareMainRun, signInOverHttp, startMain, treasuryHeadersOverHttp, type Cleanup, type MainStorage } from './support/mainProcess';

describeOnEveryStorage('SIGTERM under load', 'stops taking requests, finishes those under way and the rounds, and exits 0 ($name)', 120_000, stopUnderLoad);

/** What happened to one request. */
interface Outcome {
  kind: string;
  requestId?: string;
  sentAt: number;
  answeredAt?: number;
  /** The HTTP status, when it was answered. */
  status?: number;
  /** The connection error's code, when it was not (ECONNREFUSED: refused at connect). */
  error?: string;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** The error code under fetch's "fetch failed". */
function connectionError(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : String(error);
}

async function stopUnderLoad(storage: MainStorage, cleanup: Cleanup): Promise<void> {
  const startedAt = performance.now();
  const { env, port } = await prepareMainRun(storage, cleanup);
  // Long enough for the readiness poll below (every 25 ms) to see the 503 while requests are still served, on a busy
  // host too (a probe under way at SIGTERM took up to a second there).
  const server = await startMain({ ...env, SHUTDOWN_DRAIN_MS: '1000' });
  const runningAt = performance.now();
  cleanup.push(() => {
    server.child.kill('SIGKILL');
  });
  expect(server.output()).toContain(storage.banner);
  const base = `http://127.0.0.1:${port}`;
  const call = apiCaller(base);
  const param = await call<{ chainId: number }>('/api/dapp/dappParam');
  const treasury = { ...(await treasuryHeadersOverHttp(base)), 'content-type': 'application/json' };
  const members = await Promise.all([0, 1, 2].map(() => signInOverHttp(base, param.chainId)));
  // 2,000 each, as two grants: one grant is at most what one operator grants alone (APPROVAL_QUORUM_ABOVE, 1,000).
  const grants = await Promise.all(
    [...members, ...members].map((member) =>
      call<{ id: string }>('/api/admin/grant', { method: 'POST', headers: treasury, body: JSON.stringify({ address: member.address, asset: 'CREDIT', amount: '1000', requestId: randomUUID() }) }),
    ),
  );
  expect(grants.every((granted) => granted.id)).toBe(true);

  const outcomes: Outcome[] = [];
  let sigtermAt = Number.POSITIVE_INFINITY;
  const send = async (kind: string, url: string, init: RequestInit = {}, requestId?: string): Promise<boolean> => {
    const outcome: Outcome = { kind, requestId, sentAt: performance.now() };
    outcomes.push(outcome);
    try {
      const response = await fetch(`${base}${url}`, init);
      await response.arrayBuffer();
      outcome.status = response.status;
      return true;
    } catch (error) {
      outcome.error = connectionError(error);
      return false;
    }
  };
  // Each worker goes round the calls until a request no longer reaches the server.
  const worker = async (index: number) => {
    const member = members[index % members.length];
    if (!member) throw new Error('no member');
    const auth = { authorization: member.auth, 'content-type': 'application/json' };
    const calls: (() => Promise<boolean>)[] = [
      () => {
        const requestId = randomUUID();
        return send('grant', '/api/admin/grant', { method: 'POST', headers: treasury, body: JSON.stringify({ address: member.address, asset: 'CREDIT', amount: '1', requestId }) }, requestId);
      },
      () => {
        const requestId = randomUUID();
        return send('flashExchange', '/api/member/flashExchange', { method: 'POST', headers: auth, body: JSON.stringify({ from: 'CREDIT', amount: '1', requestId }) }, requestId);
      },
      () => {
        const requestId = randomUUID();
        return send('withdrawCredit', '/api/member/withdrawCredit', { method: 'POST', headers: auth, body: JSON.stringify({ amount: '10', requestId }) }, requestId);
      },
      () => send('meInfo', '/api/member/meInfo', { headers: auth }),
      () => send('creditRecord', '/api/member/creditRecord?pageSize=5', { headers: auth }),
    ];
    for (let turn = index; ; turn += 1) {
      if (!(await (calls[turn % calls.length] ?? calls[0])?.())) return;
    }
  };
  // The balancer's view: readiness, asked every 25 ms until the process has exited.
  const probes: Outcome[] = [];
  const pollReadiness = async () => {
    while (server.child.exitCode === null && server.child.signalCode === null) {
      const probe: Outcome = { kind: 'ready', sentAt: performance.now() };
      probes.push(probe);
      try {
        const response = await fetch(`${base}/api/health/ready`);
        await response.arrayBuffer();
        probe.status = response.status;
        probe.answeredAt = performance.now();
      } catch (error) {
        probe.error = connectionError(error);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);
  const loadAt = performance.now();
  const polling = pollReadiness();
  const working = Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(worker));
  // SIGTERM once the stream is well under way, with withdrawals approved for the payer to pay.
  await vi.waitFor(
    () => {
      expect(outcomes.filter((outcome) => outcome.status !== undefined).length).toBeGreaterThanOrEqual(60);
      expect(outcomes.filter((outcome) => outcome.kind === 'withdrawCredit' && outcome.status === 200).length).toBeGreaterThanOrEqual(3);
    },
    { timeout: 30_000, interval: 20 },
  );
  sigtermAt = performance.now();
  server.child.kill('SIGTERM');
  await working;
  await server.exited();
  await polling;
  const exitedAt = performance.now();
  expect({ exitCode: server.child.exitCode, signal: server.child.signalCode }, server.output()).toEqual({ exitCode: 0, signal: null });
  expect(server.output()).not.toMatch(/round failed|still stopping|stopping failed/);

  // No 5xx; every request answered, or not delivered at all.
  const answered = outcomes.filter((outcome) => outcome.status !== undefined);
  const undelivered = outcomes.filter((outcome) => outcome.status === undefined);
  expect(answered.filter((outcome) => (outcome.status ?? 0) >= 500)).toEqual([]);
  expect(undelivered.every((outcome) => ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(outcome.error ?? '')), JSON.stringify(undelivered)).toBe(true);
  // Requests were still answered after SIGTERM, and readiness answered 503 before the first connection was refused.
  const servedAfter = answered.filter((outcome) => outcome.sentAt > sigtermAt);
  expect(servedAfter.length).toBeGreaterThan(0);
  const firstRefusedAt = Math.min(...[...outcomes, ...probes].filter((outcome) => outcome.error === 'ECONNREFUSED').map((outcome) => outcome.sentAt));
  const firstNotReady = probes.find((probe) => probe.status === 503);
  const seen = probes.map((probe) => `${Math.round(probe.sentAt - sigtermAt)}-${Math.round((probe.answeredAt ?? Number.NaN) - sigtermAt)}:${probe.status ?? probe.error}`).join(' ');
  expect(firstNotReady && (firstNotReady.answeredAt ?? 0) > sigtermAt && (firstNotReady.answeredAt ?? 0) < firstRefusedAt, seen).toBe(true);
  expect(probes.filter((probe) => (probe.answeredAt ?? Number.POSITIVE_INFINITY) < sigtermAt).every((probe) => probe.status === 200), seen).toBe(true);
  expect(probes.filter((probe) => probe.status !== undefined).every((probe) => probe.status === 200 || probe.status === 503), seen).toBe(true);

  // Nothing half done: each answered money request is in the books, each undelivered one is not; the books balance.
  const database = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR });
  try {
    const stored = new Set((await queryRows(database.db, sql`SELECT request_id AS "requestId" FROM idempotency_keys`, z.object({ requestId: z.string() }))).map((row) => row.requestId));
    const moneyAnswered = answered.filter((outcome) => outcome.requestId && outcome.status === 200);
    expect(moneyAnswered.filter((outcome) => !stored.has(outcome.requestId ?? ''))).toEqual([]);
    expect(undelivered.filter((outcome) => outcome.requestId && stored.has(outcome.requestId))).toEqual([]);
    await expectBooksBalanced(database.db);
  } finally {
    await database.close();
  }
  const refused = undelivered.filter((outcome) => outcome.error === 'ECONNREFUSED').length;
  console.log(
    `SIGTERM under load (${storage.name}): ${outcomes.length} requests, ${answered.length} answered (${servedAfter.length} sent after SIGTERM), ` +
      `${refused} refused at connect, ${undelivered.length - refused} cut before being read (${undelivered.filter((outcome) => outcome.error !== 'ECONNREFUSED').map((outcome) => `${outcome.kind} ${outcome.error ?? ''} ${Math.round(outcome.sentAt - sigtermAt)} ms`).join(', ')}); readiness 503 ${Math.round((firstNotReady?.answeredAt ?? 0) - sigtermAt)} ms after SIGTERM; ` +
      `start ${seconds(runningAt - startedAt)} s, sign-in ${seconds(loadAt - runningAt)} s, load ${seconds(sigtermAt - loadAt)} s, SIGTERM to exit ${seconds(exitedAt - sigtermAt)} s`,
  );
}
