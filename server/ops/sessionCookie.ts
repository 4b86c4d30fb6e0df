/**
 * The desk's session travels in an HttpOnly cookie (docs/API.md, "Operators"), never in an answer a page script
 * could read: Secure, SameSite=Strict, Path=/api/admin, living as long as the session. A call made with the cookie
 * proves it comes from the desk twice: its Origin, when sent, is the request's own, and a state-changing call carries
 * the session's CSRF token in X-CSRF-Token. That token is an HMAC keyed by the session token, so it is stored
 * nowhere, every instance computes the same one, and knowing it tells nothing of the session token.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** The cookie's name; `__Host-` would demand Path=/, and the cookie is for the operators' calls only. */
export const OPS_SESSION_COOKIE = 'mdo_session';
export const CSRF_HEADER = 'x-csrf-token';
const COOKIE_PATH = '/api/admin';
const CSRF_LABEL = 'member-dapp operators desk csrf';
/** Calls that change nothing need no CSRF token (the access hook still checks their Origin). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The Set-Cookie value that opens a desk session in the browser.
 *
 * @param token - the session token (`mdo_…`)
 * @param maxAgeMs - how long the session lives
 * @returns the header value
 * @example
 * reply.header('set-cookie', sessionCookie(token, OPERATOR_SESSION_TTL_MS));
 */
export function sessionCookie(token: string, maxAgeMs: number): string {
  return `${OPS_SESSION_COOKIE}=${token}; Max-Age=${Math.floor(maxAgeMs / 1000)}; Path=${COOKIE_PATH}; HttpOnly; Secure; SameSite=Strict`;
}

/**
 * The Set-Cookie value that makes the browser forget the desk session (logout).
 *
 * @example
 * reply.header('set-cookie', clearedSessionCookie());
 */
export function clearedSessionCookie(): string {
  return `${OPS_SESSION_COOKIE}=; Max-Age=0; Path=${COOKIE_PATH}; HttpOnly; Secure; SameSite=Strict`;
}

/**
 * The session token in a Cookie header, if any. Read by hand: one cookie is all the operators' calls want, and a
 * parser would be a dependency for nine lines.
 *
 * @param header - the request's Cookie header
 * @returns the token, or undefined when there is no (non-empty) desk cookie
 * @example
 * sessionTokenOf('theme=dark; mdo_session=mdo_abc'); // 'mdo_abc'
 */
export function sessionTokenOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== OPS_SESSION_COOKIE) continue;
    const value = pair.slice(separator + 1).trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}

/**
 * The CSRF token of a session: what the desk sends back in X-CSRF-Token.
 *
 * @param sessionToken - the session token
 * @returns 43 base64url characters
 * @example
 * const csrfToken = csrfTokenOf(signedIn.token);
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update(CSRF_LABEL).digest('base64url');
}

/**
 * Whether a cookie call may go on as far as CSRF goes: a safe method, or the session's own CSRF token sent.
 *
 * @param request - the request
 * @param sessionToken - the cookie's session token
 * @returns whether the CSRF check passes
 * @example
 * if (!csrfHolds(request, sessionToken)) throw new CsrfRefusedError();
 */
export function csrfHolds(request: FastifyRequest, sessionToken: string): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string') return false;
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Whether a request's Origin, when it sends one, is the request's own: the same host (the Host header, or
 * X-Forwarded-Host behind a trusted proxy), and https when the request is known to be. The scheme is compared only
 * then: behind a proxy that ends TLS and is not trusted, the server sees http for the desk's https page.
 *
 * @param request - the request
 * @returns false for a foreign (or unreadable) Origin
 * @example
 * if (!ownOrigin(request)) throw new CsrfRefusedError();
 */
export function ownOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.host.toLowerCase() !== request.host.toLowerCase()) return false;
  return request.protocol !== 'https' || parsed.protocol === 'https:';
}
