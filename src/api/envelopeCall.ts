import type * as z from 'zod/mini';
import { ApiCode } from '../../api-schema/codes';
import type { Endpoint } from '../../api-schema/endpoint';

/**
 * One call through the envelope (docs/API.md "Envelope"), shared by the member client (client.ts) and the desk's
 * (src/ops/api/opsClient.ts): both directions checked with the endpoint's schemas, a timeout, JSON, and never a
 * throw. Every failure is a code: 1001 for parameters that were not sent, -1 for what the client could not read.
 * The clients add only what differs: how they authenticate and what they do with the code.
 */

export interface EnvelopeLogger {
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export interface EnvelopeCallSettings {
  /** The envelope's schema (api-schema/configContract.ts), passed in so that the member app can load it lazily. */
  envelopeSchema: z.ZodMiniType<{ code: number; result?: unknown }>;
  fetchImpl: typeof fetch;
  timeoutMs: number;
  logger: EnvelopeLogger;
  /** Starts every logged line ('api', 'ops api'). */
  logPrefix: string;
  baseUrl?: string;
}

export interface EnvelopeRequest {
  endpoint: Endpoint;
  query: unknown;
  body: unknown;
  headers: Record<string, string>;
}

/** `result` is set only when `code` is 0, and then it is what the endpoint's result schema gave. */
export interface EnvelopeAnswer {
  code: number;
  result?: unknown;
}

type Validation = { success: true; data: unknown } | { success: false; error: z.core.$ZodError };

function validate(schema: z.ZodMiniType | undefined, input: unknown): Validation {
  if (schema === undefined) return { success: true, data: undefined };
  return schema.safeParse(input);
}

/** A flat query object as a search string; undefined and null values are left out. */
export function searchOf(query: unknown): string {
  const params = new URLSearchParams();
  if (typeof query === 'object' && query !== null) {
    for (const [key, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined && item !== null) params.append(key, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Sends one request and reads its envelope.
 *
 * @example const answer = await callThroughEnvelope(settings, { endpoint, query, body, headers: { Accept: 'application/json' } });
 */
export async function callThroughEnvelope(settings: EnvelopeCallSettings, request: EnvelopeRequest): Promise<EnvelopeAnswer> {
  const { endpoint } = request;
  const { logger, logPrefix, timeoutMs } = settings;
  const label = `${endpoint.method} ${endpoint.path}`;
  const query = validate(endpoint.query, request.query);
  const body = validate(endpoint.body, request.body);
  if (!query.success || !body.success) {
    logger.warn(`${logPrefix}: ${label} not sent, invalid parameters`, query.success ? undefined : query.error, body.success ? undefined : body.error);
    return { code: ApiCode.invalidParameters };
  }

  const { headers } = request;
  const init: RequestInit = { method: endpoint.method, headers };
  if (endpoint.method === 'POST') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body.data ?? {});
  }

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let payload: unknown;
  try {
    const url = `${settings.baseUrl ?? ''}${endpoint.path}${searchOf(query.data)}`;
    const response = await settings.fetchImpl(url, { ...init, signal: controller.signal });
    const text = await response.text();
    try {
      payload = JSON.parse(text) as unknown;
    } catch {
      logger.error(`${logPrefix}: ${label} answered HTTP ${response.status} with a body that is not JSON`, text.slice(0, 200));
      return { code: ApiCode.clientFailure };
    }
  } catch (error) {
    logger.error(controller.signal.aborted ? `${logPrefix}: ${label} timed out after ${timeoutMs} ms` : `${logPrefix}: ${label} failed`, error);
    return { code: ApiCode.clientFailure };
  } finally {
    clearTimeout(timer);
  }

  const envelope = settings.envelopeSchema.safeParse(payload);
  if (!envelope.success) {
    logger.error(`${logPrefix}: ${label} answered something that is not an envelope`, envelope.error);
    return { code: ApiCode.clientFailure };
  }
  if (envelope.data.code !== ApiCode.ok) return { code: envelope.data.code };
  const result = endpoint.result.safeParse(envelope.data.result);
  if (!result.success) {
    logger.error(`${logPrefix}: ${label} result does not match the contract`, result.error);
    return { code: ApiCode.clientFailure };
  }
  return { code: ApiCode.ok, result: result.data };
}
