import type { FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { RateLimitRule } from './endpoint';

/** What every route plugin gets from buildApp. */
export interface RouteDeps {
  db: Db;
  now: Clock;
  /** SIWE_DOMAIN when configured; otherwise each request's Host is the domain. */
  siweDomain: string | undefined;
  rateLimits: { loginNonce: RateLimitRule; memberSignLogin: RateLimitRule };
}

/**
 * The domain sign-in messages must name: the configured one, else the Host this request came to (so a dev
 * server on localhost:8080 and a deployment behind a domain both work without configuration).
 *
 * @param deps - route dependencies
 * @param request - the request
 * @returns the domain (authority), e.g. "localhost:8080"
 * @example
 * expectedDomain(deps, request); // "member.example"
 */
export function expectedDomain(deps: Pick<RouteDeps, 'siweDomain'>, request: FastifyRequest): string {
  return deps.siweDomain ?? request.host;
}
