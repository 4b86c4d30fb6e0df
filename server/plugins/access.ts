/**
 * Access levels of api-schema (public, token, member, admin) enforced in one onRequest hook, before the body is even
 * parsed: no token or a bad one is 1002, a temporary token (recommender not bound) on a member endpoint is 1003, and
 * an admin endpoint wants X-Admin-Token equal to ADMIN_TOKEN (1002 otherwise; without ADMIN_TOKEN its routes are
 * not registered, so the path is 4004).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EndpointAccess } from '../../api-schema/endpoint';
import type { AdminToken } from '../auth/adminToken';
import { tokenFromHeader, type AuthContext, type TokenResolver } from '../auth/tokens';
import type { Clock } from '../clock';
import { BindRequiredError, NotSignedInError } from '../errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: EndpointAccess;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/**
 * Installs the access hook on an instance; routes say their level in `config.access`.
 *
 * @param app - the root instance
 * @param deps - the token reader, clock and the operator's token when set
 * @returns nothing; the hook is installed
 * @example
 * installAccessControl(app, { tokens: createTokenResolver(db, 1), now });
 */
export function installAccessControl(app: FastifyInstance, deps: { tokens: TokenResolver; now: Clock; adminToken?: AdminToken | undefined }): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (access === undefined || access === 'public') return;
    if (access === 'admin') {
      if (!deps.adminToken?.matches(request.headers['x-admin-token'])) throw new NotSignedInError();
      return;
    }
    const token = tokenFromHeader(request.headers.authorization);
    const auth = token === undefined ? undefined : await deps.tokens.resolve(token, deps.now());
    if (!auth) throw new NotSignedInError();
    if (access === 'member' && !auth.bound) throw new BindRequiredError();
    request.auth = auth;
  });
}

/**
 * The caller's auth in a token or member route (the hook has already refused anyone else).
 *
 * @param request - the request
 * @returns the auth context
 * @throws NotSignedInError when called on a public route by mistake
 * @example
 * const { memberId } = requireAuth(request);
 */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new NotSignedInError();
  return request.auth;
}
