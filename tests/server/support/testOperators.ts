/** Operators in tests: make them in the database, sign them in as the desk does, make API keys. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { OperatorRole } from '../../../api-schema/endpoint';
import { OPERATOR_SIGN_IN_STATEMENT } from '../../../api-schema/ops';
import type { Db } from '../../../server/db/client';
import { putOperator } from '../../../server/ops/operators';
import { csrfTokenOf } from '../../../server/ops/sessionCookie';
import { TEST_START } from './testClock';
import { buildMessage, envelope, TEST_DOMAIN, type MessageOverrides } from './memberSignIn';

/** Before the test clock starts, so operators added by tests' calls come after. */
const ADDED_AT = new Date(TEST_START.getTime() - 24 * 60 * 60 * 1000);

/** Adds (or sets) an operator directly, as the CLI does. */
export async function addOperator(db: Db, address: string, roles: readonly OperatorRole[], at = ADDED_AT): Promise<void> {
  await putOperator(db, { address, roles }, { at, actorAddress: null, actorRoles: [], via: 'cli', requestId: null, clientAddress: null }, 'cliAdd');
}

export async function requestOperatorNonce(app: FastifyInstance, address: string): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/admin/auth/nonce', query: { address } });
  const body = envelope<{ nonce: string }>(response);
  if (body.code !== 0 || !body.result) throw new Error(`opsLoginNonce failed: ${response.body}`);
  return body.result.nonce;
}

/** An operator's sign-in message: the members' shape with the operators' statement. */
export function operatorMessage(account: PrivateKeyAccount, nonce: string, now: Date, overrides: MessageOverrides = {}): string {
  return buildMessage(account, nonce, now, { statement: OPERATOR_SIGN_IN_STATEMENT, ...overrides });
}

export async function postOpsSignIn(app: FastifyInstance, payload: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/admin/auth/signIn', headers: { host: TEST_DOMAIN }, payload });
}

export interface OperatorSignedIn {
  expiresAt: string;
  operator: { address: string; roles: OperatorRole[] };
  csrfToken: string;
  /** The session token, read from the Set-Cookie header as the browser would keep it. */
  token: string;
  /** The answer's Set-Cookie header. */
  setCookie: string;
  /** What the desk's browser sends on a state-changing call: the cookie and the CSRF header. */
  headers: Record<string, string>;
}

/** The session token a Set-Cookie header sets for the desk, if any. */
export function sessionTokenIn(setCookie: string | string[] | number | undefined): string | undefined {
  const header = Array.isArray(setCookie) ? setCookie.join('\n') : String(setCookie ?? '');
  return /(?:^|\n)mdo_session=([^;]+)/u.exec(header)?.[1];
}

/** The headers of a desk call made with a session: the cookie, and the session's CSRF token. */
export function sessionHeaders(token: string, csrfToken: string = csrfTokenOf(token)): Record<string, string> {
  return { cookie: `mdo_session=${token}`, 'x-csrf-token': csrfToken };
}

/** Full operator sign-in; throws unless the server answers code 0 and sets the session cookie. */
export async function signInOperator(app: FastifyInstance, account: PrivateKeyAccount, now: Date, overrides: MessageOverrides = {}): Promise<OperatorSignedIn> {
  const message = operatorMessage(account, await requestOperatorNonce(app, account.address), now, overrides);
  const response = await postOpsSignIn(app, { message, signature: await account.signMessage({ message }) });
  const body = envelope<Omit<OperatorSignedIn, 'token' | 'setCookie' | 'headers'>>(response);
  const token = sessionTokenIn(response.headers['set-cookie']);
  if (body.code !== 0 || !body.result || token === undefined) throw new Error(`opsSignIn failed: ${response.body}`);
  return { ...body.result, token, setCookie: String(response.headers['set-cookie']), headers: sessionHeaders(token, body.result.csrfToken) };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Creates an API key from a session (the cookie and CSRF headers); throws unless code 0. */
export async function createKey(app: FastifyInstance, session: Record<string, string>, roles: readonly OperatorRole[], label = 'script'): Promise<{ id: string; key: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/admin/keys/create', headers: session, payload: { label, roles } });
  const body = envelope<{ id: string; key: string }>(response);
  if (body.code !== 0 || !body.result) throw new Error(`opsKeyCreate failed: ${response.body}`);
  return body.result;
}
