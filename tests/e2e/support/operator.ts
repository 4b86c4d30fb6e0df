/**
 * The operator API as the e2e journeys call it (docs/API.md "Operations"): a POST by the test treasury (a finance
 * operator with a fixed API key, tests/support/treasury.ts, on servers started with `treasury`) to the server the
 * journeys run against; and an operator's desk session made over HTTP.
 */
import type { Cookie } from 'playwright-core';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { signInOperatorOverHttp } from '../../server/support/httpSignIn';
import { treasuryHeaders } from '../../support/treasury';

/** What these calls need of a journey's harness (journey.ts): the server's address. */
interface ServerOf {
  readonly server: { readonly url: string };
}

export interface Envelope<T> {
  code: number;
  result?: T;
}

/**
 * A call to the server answered with its envelope, as the app and the desk send it: a GET without a body, a JSON POST
 * with one; `headers` carry the credential (a member's token, a desk session's cookie and CSRF token, the treasury's key).
 *
 * @example const answer = await envelopeCall(e2e.server.url, '/api/admin/me', desk.headers);
 */
export async function envelopeCall<T>(base: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Envelope<T>> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Envelope<T>;
}

/**
 * A call of the test treasury, answered with the server's envelope.
 *
 * @param e2e - the file's journey harness (its server)
 * @param path - e.g. /api/admin/grant
 * @param body - the request body
 * @returns the envelope
 * @example
 * const grant = await treasuryCall(e2e, '/api/admin/grant', { address, asset: 'WPOS', amount: '100', requestId });
 */
export function treasuryCall<T>(e2e: ServerOf, path: string, body: unknown): Promise<Envelope<T>> {
  return envelopeCall<T>(e2e.server.url, path, treasuryHeaders(), body);
}

/**
 * The desk's session cookie as opsSignIn sets it, holding a value (a session token, or anything a test plants).
 *
 * @example await context.addCookies([deskCookie(e2e.server.url, token)]);
 */
export function deskCookie(base: string, value: string): Cookie {
  return { name: 'mdo_session', value, domain: new URL(base).hostname, path: '/api/admin', httpOnly: true, secure: true, sameSite: 'Strict', expires: -1 };
}

/** An operator's desk session made over HTTP: what the browser would hold, and what a test sends for it. */
export interface DeskSession {
  /** The session cookie's value, read from Set-Cookie (a test may; the desk's page never can). */
  token: string;
  csrfToken: string;
  /** The cookie as the desk's browser keeps it, for BrowserContext.addCookies. */
  cookie: Cookie;
  /** A state-changing desk call's headers: the cookie and the CSRF token. */
  headers: Record<string, string>;
}

/**
 * An operator's wallet signs the desk's message with viem and signs in through the API, as the desk does at /ops
 * (opsLoginNonce, opsSignIn), on the app config's chain. For journeys whose subject comes after the desk's sign-in;
 * the sign-in itself is walked at /ops by ops.spec.ts and the desk's visual check.
 *
 * @param e2e - the file's journey harness (its server)
 * @param privateKey - the operator's key
 * @returns the session: its cookie for a browser, its headers for calls made by the test
 * @example
 * const desk = await deskSessionOverHttp(e2e, DEMO_OPERATOR_KEY);
 * const { page } = await e2e.open({ wallet: { ...wallet, connected: true }, cookies: [desk.cookie] });
 */
export async function deskSessionOverHttp(e2e: ServerOf, privateKey: Hex): Promise<DeskSession> {
  const base = e2e.server.url;
  const session = await signInOperatorOverHttp(base, privateKeyToAccount(privateKey));
  const token = /^mdo_session=(.+)$/u.exec(session.cookie ?? '')?.[1];
  const csrfToken = session['x-csrf-token'];
  if (token === undefined || csrfToken === undefined) throw new Error('opsSignIn gave no session');
  return {
    token,
    csrfToken,
    cookie: deskCookie(base, token),
    headers: { Cookie: `mdo_session=${token}`, 'X-CSRF-Token': csrfToken },
  };
}
