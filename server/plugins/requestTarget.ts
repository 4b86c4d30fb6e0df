/**
 * Odd request targets get a clear 4xx before routing, never a 5xx and never a file: dot segments (raw, %2e%2e,
 * with %2f, or double-encoded), control characters (%00 and the like), backslashes, empty segments, malformed
 * percent-encoding and targets over MAX_TARGET_LENGTH. Fastify's rewriteUrl sends each of them to one internal
 * route, so the answer goes through the same hooks as any other (security headers, request id) and leaves as the
 * docs/API.md envelope: 1001 "path" with 400, or 414 for a target that is too long. Targets longer than Node's
 * header limit (16 KiB) never reach Fastify: Node answers 431 itself.
 */
import type { FastifyInstance } from 'fastify';
import { ApiCode, httpStatusOf } from '../../api-schema/codes';
import type { ErrorEnvelope } from './errorHandler';

/** Longest request target (path and query) served; the longest legitimate one is a notice link, far below. */
export const MAX_TARGET_LENGTH = 2048;

/** Where rewriteUrl sends an odd target; the reason follows as the last segment. */
const ODD_TARGET_ROUTE = '/__odd-request-target';

/** Why a target is refused. */
export type OddTarget = 'tooLong' | 'badEncoding' | 'controlCharacter' | 'backslash' | 'dotSegment' | 'emptySegment';

/** C0 controls and DEL, by code point (a regex literal of them trips no-control-regex). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The path of an origin-form or absolute-form target, still percent-encoded. */
function encodedPathOf(target: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/iu.exec(target);
  const rest = absolute ? target.slice(absolute[0].length) || '/' : target;
  return rest.split(/[?#]/u, 1)[0] ?? '';
}

/** What one decoding pass reveals, or badEncoding. */
function oddPath(path: string): OddTarget | undefined {
  if (hasControlCharacter(path)) return 'controlCharacter';
  if (path.includes('\\')) return 'backslash';
  const segments = path.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.')) return 'dotSegment';
  if (segments.slice(1, -1).some((segment) => segment === '')) return 'emptySegment';
  return undefined;
}

/**
 * Classifies a request target: undefined for an ordinary one, else why it is odd. The path is checked as sent,
 * once decoded and, when that still holds percent-escapes, twice decoded, so %2e%2e and %252e%252e are dot
 * segments and %2f a separator.
 *
 * @param target - the raw request target (req.url), e.g. "/locales/zh/%2e%2e%2fsecret.json"
 * @returns the reason, or undefined
 * @example
 * oddTargetOf('/locales/zh/..%2f..%2fpackage.json'); // 'dotSegment'
 * oddTargetOf('/login/DEMO2026?lng=en'); // undefined
 */
export function oddTargetOf(target: string): OddTarget | undefined {
  if (target.length > MAX_TARGET_LENGTH) return 'tooLong';
  let path = encodedPathOf(target);
  for (let pass = 0; pass < 3; pass++) {
    const odd = oddPath(path);
    if (odd) return odd;
    if (!path.includes('%')) return undefined;
    try {
      path = decodeURIComponent(path);
    } catch {
      // The first pass is what the router decodes; a later pass failing is just a literal % in a name.
      return pass === 0 ? 'badEncoding' : undefined;
    }
  }
  return undefined;
}

/**
 * Fastify's rewriteUrl option: an odd target goes to the internal route, anything else is left as it is.
 *
 * @param url - req.url
 * @returns the URL to route
 * @example
 * Fastify({ rewriteUrl: (req) => routeOddTargets(req.url ?? '/') });
 */
export function routeOddTargets(url: string): string {
  const odd = oddTargetOf(url);
  return odd === undefined ? url : `${ODD_TARGET_ROUTE}/${odd}`;
}

/**
 * Registers the internal route that answers odd targets.
 *
 * @param app - the root instance (built with rewriteUrl: routeOddTargets)
 * @returns nothing; the route is registered
 * @example
 * installOddTargetRoute(app);
 */
export function installOddTargetRoute(app: FastifyInstance): void {
  app.all(`${ODD_TARGET_ROUTE}/:reason`, async (request, reply) => {
    const { reason } = request.params as { reason: string };
    const body: ErrorEnvelope = { code: ApiCode.invalidParameters, message: 'path' };
    request.log.info({ reason, url: request.originalUrl.slice(0, 200) }, 'odd request target refused');
    return reply.code(reason === 'tooLong' ? 414 : httpStatusOf[ApiCode.invalidParameters]).header('cache-control', 'no-store').send(body);
  });
}
