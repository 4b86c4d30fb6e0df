/**
 * The desk's API client: the member client's rules (src/api/client.ts: JSON, a timeout, both directions checked
 * with the contract, never throws, every failure a code) and the desk's own contract (opsContract.ts). The session
 * is the HttpOnly cookie the browser sends by itself (same origin only); the client adds the session's CSRF token
 * as X-CSRF-Token. A 1002 answer tells the session it is no longer good.
 */
import { ApiCode } from '../../../api-schema/codes';
import type { Endpoint } from '../../../api-schema/endpoint';
import type { Answer } from '../../../machines/shared/answer';
import { envelopeSchema, opsEndpoints } from './opsContract';
import type { OpsBody, OpsEndpointName, OpsQuery, OpsResult } from './opsContract';

export interface OpsCallParameters<TName extends OpsEndpointName> {
  query?: OpsQuery<TName>;
  body?: OpsBody<TName>;
  /**
   * Another CSRF token than the session's (sign-out sends the one of the session it ends, sign-in and the start's
   * check none). A call that names one does not report a 1002: its caller reads the answer itself.
   */
  csrfToken?: string | null;
}

export interface OpsClient {
  call<TName extends OpsEndpointName>(name: TName, parameters?: OpsCallParameters<TName>): Promise<Answer<OpsResult<TName>>>;
  /** A file the API answers (the audit log's CSV), with the session's cookie; null when it failed. */
  download(path: string, query: Record<string, string>): Promise<Blob | null>;
}

export interface CreateOpsClientParameters {
  getCsrfToken: () => string | null;
  onSessionRejected: () => void;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
  logger?: Pick<Console, 'warn' | 'error'>;
}

function searchOf(query: unknown): string {
  const params = new URLSearchParams();
  if (typeof query === 'object' && query !== null) {
    for (const [key, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined && item !== null && item !== '') params.append(key, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Creates the desk's client.
 *
 * @example const api = createOpsClient({ getCsrfToken: () => csrfToken, onSessionRejected: () => session.send({ type: 'server.tokenExpired' }) });
 */
export function createOpsClient({
  getCsrfToken,
  onSessionRejected,
  fetchImpl = (input, init) => globalThis.fetch(input, init),
  timeoutMs = 50_000,
  logger = console,
}: CreateOpsClientParameters): OpsClient {
  const headersFor = (csrfToken: string | null): Record<string, string> => (csrfToken ? { Accept: 'application/json', 'X-CSRF-Token': csrfToken } : { Accept: 'application/json' });
  // The cookie goes to the desk's own origin only, never to another.
  const credentials: RequestCredentials = 'same-origin';

  async function call<TName extends OpsEndpointName>(name: TName, parameters: OpsCallParameters<TName> = {}): Promise<Answer<OpsResult<TName>>> {
    const endpoint: Endpoint = opsEndpoints[name];
    const label = `${endpoint.method} ${endpoint.path}`;
    const query = endpoint.query ? endpoint.query.safeParse(parameters.query ?? {}) : { success: true as const, data: undefined };
    const body = endpoint.body ? endpoint.body.safeParse(parameters.body) : { success: true as const, data: undefined };
    if (!query.success || !body.success) {
      logger.warn(`ops api: ${label} not sent, invalid parameters`);
      return { code: ApiCode.invalidParameters, result: null };
    }
    const csrfToken = parameters.csrfToken === undefined ? getCsrfToken() : parameters.csrfToken;
    const init: RequestInit = { method: endpoint.method, headers: headersFor(csrfToken), credentials };
    if (endpoint.method === 'POST') {
      init.headers = { ...headersFor(csrfToken), 'Content-Type': 'application/json' };
      init.body = JSON.stringify(body.data ?? {});
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let payload: unknown;
    try {
      const response = await fetchImpl(`${endpoint.path}${searchOf(query.data)}`, { ...init, signal: controller.signal });
      payload = JSON.parse(await response.text()) as unknown;
    } catch (error) {
      logger.error(`ops api: ${label} failed`, error);
      return { code: ApiCode.clientFailure, result: null };
    } finally {
      clearTimeout(timer);
    }
    const envelope = envelopeSchema.safeParse(payload);
    if (!envelope.success) {
      logger.error(`ops api: ${label} answered something that is not an envelope`);
      return { code: ApiCode.clientFailure, result: null };
    }
    if (envelope.data.code === ApiCode.notSignedIn && parameters.csrfToken === undefined) onSessionRejected();
    if (envelope.data.code !== ApiCode.ok) return { code: envelope.data.code, result: null };
    const result = endpoint.result.safeParse(envelope.data.result);
    if (!result.success) {
      logger.error(`ops api: ${label} result does not match the contract`, result.error);
      return { code: ApiCode.clientFailure, result: null };
    }
    return { code: ApiCode.ok, result: result.data as OpsResult<TName> };
  }

  async function download(path: string, query: Record<string, string>): Promise<Blob | null> {
    try {
      const response = await fetchImpl(`${path}${searchOf(query)}`, { headers: { Accept: 'text/csv' }, credentials });
      if (response.status === 401) onSessionRejected();
      return response.ok ? await response.blob() : null;
    } catch (error) {
      logger.error(`ops api: ${path} failed`, error);
      return null;
    }
  }

  return { call, download };
}
