/** Helpers of the finance desk's tests: operators with sessions, and the finance calls. */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { OperatorRole } from '../../../api-schema/endpoint';
import { hashToken } from '../../../server/auth/tokens';
import type { Db } from '../../../server/db/client';
import { OPERATOR_SESSION_TTL_MS, SESSION_PREFIX } from '../../../server/ops/signIn';
import { sessionHeaders } from './testOperators';

export interface TestOperator {
  address: string;
  headers: Record<string, string>;
}

/**
 * An operator with the roles and a live session, written straight into the identity tables (signing in is the
 * identity suites' subject).
 *
 * @example
 * const alice = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
 * const carol = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now(), accounts.carol.address); // also a member
 */
export async function operatorWithSession(db: Db, roles: readonly OperatorRole[], now: Date, address = privateKeyToAccount(generatePrivateKey()).address): Promise<TestOperator> {
  const token = `${SESSION_PREFIX}${randomBytes(32).toString('base64url')}`;
  await db.execute(sql`INSERT INTO operators (address, roles, added_at) VALUES (${address}, ${`{${roles.join(',')}}`}::text[], ${now.toISOString()}::timestamptz)`);
  await db.execute(
    sql`INSERT INTO operator_sessions (hash, address, expires_at) VALUES (${hashToken(token)}, ${address}, ${new Date(now.getTime() + OPERATOR_SESSION_TTL_MS).toISOString()}::timestamptz)`,
  );
  return { address, headers: sessionHeaders(token) };
}

export function approve(app: FastifyInstance, operator: TestOperator, id: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/admin/withdrawal/decide', headers: operator.headers, payload: { id, status: 'approved' } });
}

export function fail(app: FastifyInstance, operator: TestOperator, id: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/admin/withdrawal/decide', headers: operator.headers, payload: { id, status: 'failed' } });
}

/** POST /api/admin/payouts/resume: this operator's call to resume a payout pause, with a new request id. */
export function resumePayouts(app: FastifyInstance, operator: TestOperator, pauseId: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/admin/payouts/resume', headers: operator.headers, payload: { pauseId, requestId: randomUUID() } });
}

export function approveMany(app: FastifyInstance, operator: TestOperator, ids: string[]): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/admin/withdrawals/approve', headers: operator.headers, payload: { ids } });
}

export function queue(app: FastifyInstance, operator: TestOperator, query: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: '/api/admin/withdrawals', headers: operator.headers, query });
}

export function adjust(
  app: FastifyInstance,
  operator: TestOperator,
  body: { address: string; asset?: 'CREDIT' | 'WPOS'; amount: string; reason?: string; requestId: string },
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/admin/adjust', headers: operator.headers, payload: { asset: 'CREDIT', reason: 'test', ...body } });
}

export function confirmAdjust(app: FastifyInstance, operator: TestOperator, id: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/admin/adjust/confirm', headers: operator.headers, payload: { id } });
}

export function freeze(app: FastifyInstance, operator: TestOperator, body: { address: string; frozen: boolean; reason: string }): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/admin/member/freeze', headers: operator.headers, payload: body });
}
