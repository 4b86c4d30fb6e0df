/**
 * Registers contract endpoints: method, path, access level and zod schemas all come from api-schema, so the
 * server cannot drift from the client or from docs/api/openapi.json. The handler returns the `result`; this
 * wraps it in the success envelope, which the zod serializer checks against the contract before sending.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { Endpoint } from '../../api-schema/endpoint';
import { endpoints, type EndpointName, type Endpoints } from '../../api-schema/endpoints';
import { envelopeOf } from '../../api-schema/primitives';

type Parsed<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

export interface EndpointContext<E extends Endpoint> {
  query: Parsed<E['query']>;
  body: Parsed<E['body']>;
  request: FastifyRequest;
  /** For headers only (the desk's session cookie): the envelope is still the handler's result. */
  reply: FastifyReply;
}

export type EndpointHandler<E extends Endpoint> = (context: EndpointContext<E>) => Promise<z.output<E['result']>>;

/** Handlers of one area, by contract name. */
export type Handlers = { [K in EndpointName]?: EndpointHandler<Endpoints[K]> };

export interface RateLimitRule {
  /** Requests allowed per window and client address (or per what keyGenerator names). */
  max: number;
  /** Window length in milliseconds. */
  timeWindow: number;
  /** What the count is kept per; default the client address. The access hook has run (request.auth is set). */
  keyGenerator?: ((request: FastifyRequest) => string) | undefined;
}

/** Per-endpoint extras that are server policy rather than contract. */
export type EndpointExtras = { [K in EndpointName]?: { rateLimit?: RateLimitRule | undefined } };

/**
 * Fastify hands an absent body to the validator as null (fastify lib/validation.js, validateParam), while the
 * contract says "no body" with `z.optional(...)`, i.e. undefined. For bodies the contract allows to be absent, map
 * null back to undefined before the contract's own schema runs; every other body is validated as it is.
 */
function bodySchemaOf(body: z.ZodMiniType): z.ZodMiniType {
  if (!body.safeParse(undefined).success) return body;
  return z.pipe(z.transform((value: unknown): unknown => (value === null ? undefined : value)), body);
}

/**
 * Registers one contract endpoint.
 *
 * @param app - the Fastify instance (or plugin scope)
 * @param endpoint - the contract entry
 * @param handler - computes the result
 * @param rateLimit - optional per-client limit for this route
 * @returns nothing; the route is registered
 * @example
 * registerEndpoint(app, endpoints.dappParam, async () => config);
 */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  rateLimit?: RateLimitRule,
): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: bodySchemaOf(endpoint.body) } : {}),
      response: { 200: envelopeOf(endpoint.result) },
    },
    config: { access: endpoint.access, ...(rateLimit ? { rateLimit } : {}) },
    handler: async (request, reply) => {
      // The validator compiler has already parsed query and body with these very schemas.
      const result = await handler({
        query: request.query as Parsed<E['query']>,
        body: request.body as Parsed<E['body']>,
        request,
        reply,
      });
      return { code: 0, result };
    },
  });
}

/**
 * Registers the handlers of one area, looking each endpoint up in the contract catalogue by name.
 *
 * @param app - the plugin scope
 * @param handlers - handlers by contract name
 * @param extras - per-endpoint server policy such as rate limits
 * @returns nothing; the routes are registered
 * @example
 * registerHandlers(app, { dappParam: async () => config });
 */
export function registerHandlers(app: FastifyInstance, handlers: Handlers, extras: EndpointExtras = {}): void {
  for (const name of Object.keys(handlers) as EndpointName[]) {
    // Each handler was type-checked against its own endpoint in the Handlers mapped type; the loop only loses
    // the pairing, not the guarantee.
    const handler = handlers[name];
    if (handler) registerEndpoint(app, endpoints[name] as Endpoint, handler, extras[name]?.rateLimit);
  }
}
