/**
 * Access levels of api-schema (public, token, member, operator) enforced in one onRequest hook, before the body is
 * even parsed: no token or a bad one is 1002, a temporary token (recommender not bound) on a member endpoint is 1003.
 * An operator call wants an API key as bearer or the desk's session cookie (OperatorResolver); 1002 without one, 1006
 * without the role. An X-Admin-Token header opens nothing: a leaked setting must never act as an operator. A cookie
 * call from a foreign Origin, or a state-changing one without the session's X-CSRF-Token, is 1006 as well
 * (server/ops/sessionCookie.ts). Members' tokens and operators' live in different tables, so neither opens the
 * other's calls. Deny by default: an /api/ route with no level fails as it is registered (contract routes always
 * name one; a public one says 'public').
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EndpointAccess } from '../../api-schema/endpoint';
import { operatorRolesOf } from '../../api-schema/endpoint';
import { tokenFromHeader, type AuthContext, type TokenResolver } from '../auth/tokens';
import type { Clock } from '../clock';
import { BindRequiredError, CsrfRefusedError, NotSignedInError, RoleRequiredError } from '../errors';
import { holdsRole, type OperatorActor, type OperatorResolver } from '../ops/actor';
import { csrfHolds, ownOrigin, sessionTokenOf } from '../ops/sessionCookie';

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
 * @param deps - the members' and operators' token readers and the clock
 * @returns nothing; the hook is installed
 * @example
 * installAccessControl(app, { tokens: createTokenResolver(db, 1), now });
 */
export function installAccessControl(
  app: FastifyInstance,
  deps: { tokens: TokenResolver; now: Clock; operators?: OperatorResolver | undefined },
): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('operator', null);
  // Deny by default: a call under /api/ that names no access level is a mistake, caught as it is registered (the
  // server does not start), never a public route. Pages and files outside /api/ are public by their plugins.
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (url.startsWith('/api/') && route.config?.access === undefined) {
      throw new Error(`${route.method.toString()} ${url} names no access level (config.access): every API route says who may call it`);
    }
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (access === undefined || access === 'public') return;
    const operatorCall = operatorRolesOf(access);
    if (operatorCall) {
      const operator = await operatorOf(request, deps);
      request.operator = operator;
      const { roles } = operatorCall;
      if (roles !== undefined && !roles.some((role) => holdsRole(operator, role))) throw new RoleRequiredError();
      return;
    }
    const token = tokenFromHeader(request.headers.authorization);
    const auth = token === undefined ? undefined : await deps.tokens.resolve(token, deps.now());
    if (!auth) throw new NotSignedInError();
    if (access === 'member' && !auth.bound) throw new BindRequiredError();
    request.auth = auth;
  });
}

/** The operator behind an operator call's credentials, or 1002. */
async function operatorOf(
  request: FastifyRequest,
  deps: { now: Clock; operators?: OperatorResolver | undefined },
): Promise<OperatorActor> {
  const bearer = tokenFromHeader(request.headers.authorization);
  if (bearer !== undefined) {
    // A bearer is a script's API key; the desk's session comes only in its cookie, so a page never holds it.
    const actor = await deps.operators?.resolve(bearer, deps.now());
    if (actor?.via !== 'apiKey') throw new NotSignedInError();
    return actor;
  }
  const sessionToken = sessionTokenOf(request.headers.cookie);
  if (sessionToken === undefined) throw new NotSignedInError();
  if (!ownOrigin(request)) throw new CsrfRefusedError();
  const actor = await deps.operators?.resolve(sessionToken, deps.now());
  if (actor?.via !== 'session') throw new NotSignedInError();
  if (!csrfHolds(request, sessionToken)) throw new CsrfRefusedError();
  return actor;
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
