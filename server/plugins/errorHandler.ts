/**
 * One error handler for the whole server: every failure leaves as the docs/API.md envelope with the HTTP status of
 * api-schema/codes.ts. Schema failures name the field (1001); our @fastify/error classes carry their code;
 * Fastify's own request errors (body too large, bad JSON, wrong content type) are bad input too; anything else
 * is 5000, logged with the request id and answered without internals.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiCode, httpStatusOf, type ApiCodeValue } from '../../api-schema/codes';
import { apiCodeOf } from '../errors';

export interface ErrorEnvelope {
  code: ApiCodeValue;
  message?: string;
}

type ValidationFailure = { instancePath: string; params?: Record<string, unknown> };

/** The field to name in 1001's message: the zod issue path, an unknown key of a strict object, or the part. */
function invalidField(validation: readonly ValidationFailure[], part: string | undefined): string {
  const first = validation[0];
  const path = (first?.instancePath ?? '').split('/').filter(Boolean).join('.');
  if (path) return path;
  const keys = first?.params?.keys;
  if (Array.isArray(keys) && typeof keys[0] === 'string') return keys[0];
  return part ?? 'body';
}

/**
 * A 4xx raised by Fastify or a plugin rather than by our code: Fastify's request errors (FST_ERR_*: body too large,
 * bad JSON, wrong content type) and the static files' refusals (@fastify/static's forbidden path, @fastify/send's
 * http-errors). Their status is kept; they are never a 5000.
 */
function clientErrorOf(error: unknown): { status: number; part: 'body' | 'path' } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, statusCode, status } = error as Partial<FastifyError> & { status?: unknown };
  const httpStatus = typeof statusCode === 'number' ? statusCode : status;
  if (typeof httpStatus !== 'number' || httpStatus < 400 || httpStatus >= 500) return undefined;
  return { status: httpStatus, part: typeof code === 'string' && code.startsWith('FST_ERR_') ? 'body' : 'path' };
}

/** node-postgres's and the network's ways of saying the database is not there (a failover, a restart). */
const UNREACHABLE_NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
// SQLSTATE: connection exceptions (08), admin or crash shutdown and "cannot connect now" (57P01-57P03), and a
// read-only transaction (25006: the address still names a standby not yet promoted).
const UNREACHABLE_SQLSTATE = /^(08...|57P0[123]|25006)$/;

/** Whether an error says the database cannot be reached now, rather than that a statement failed. */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_NETWORK.has(code) || UNREACHABLE_SQLSTATE.test(code))) return true;
  if (typeof message === 'string' && /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(message)) return true;
  // drizzle wraps the driver's error ("Failed query: ...") with it as the cause.
  return cause !== undefined && cause !== error && isDatabaseUnreachable(cause);
}

/**
 * Maps any error to its HTTP status and envelope.
 *
 * @param error - what a handler or hook threw
 * @param request - the request, for its id
 * @returns status and body to send
 * @example
 * const { status, body } = envelopeForError(new NotFoundError(), request); // 404, { code: 4004, ... }
 */
export function envelopeForError(error: unknown, request: FastifyRequest): { status: number; body: ErrorEnvelope } {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const field = invalidField(error.validation, error.validationContext);
    return { status: httpStatusOf[ApiCode.invalidParameters], body: { code: ApiCode.invalidParameters, message: field } };
  }
  const apiCode = apiCodeOf(error);
  if (apiCode !== undefined && error instanceof Error) {
    return { status: httpStatusOf[apiCode], body: { code: apiCode, message: error.message } };
  }
  const clientError = clientErrorOf(error);
  if (clientError?.status === 404) return { status: 404, body: notFoundEnvelope() };
  if (clientError) {
    // Keep the status (413, 415, 400, 403) so proxies and curl users see what went wrong; the code is 1001.
    return { status: clientError.status, body: { code: ApiCode.invalidParameters, message: clientError.part } };
  }
  if (isDatabaseUnreachable(error)) {
    return { status: httpStatusOf[ApiCode.databaseUnavailable], body: { code: ApiCode.databaseUnavailable, message: 'The database cannot be reached now; try again in a moment' } };
  }
  return { status: httpStatusOf[ApiCode.internal], body: { code: ApiCode.internal, message: `Internal error, request ${request.id}` } };
}

/**
 * Installs the error handler and the 404 handler for API paths.
 *
 * @param app - the root instance
 * @returns nothing; handlers are installed
 * @example
 * installErrorHandling(app);
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = envelopeForError(error, request);
    if (status >= 500) request.log.error({ err: error, reqId: request.id }, 'unexpected error');
    else request.log.info({ code: body.code, status, reason: error instanceof Error ? error.message : String(error) }, 'request refused');
    return reply.code(status).send(body);
  });
}

/**
 * The envelope of an unknown path.
 *
 * @returns the 4004 body
 * @example
 * reply.code(404).send(notFoundEnvelope());
 */
export function notFoundEnvelope(): ErrorEnvelope {
  return { code: ApiCode.notFound, message: 'Not found' };
}
