/**
 * The desk's API client: the member client's call core (src/api/envelopeCall.ts: JSON, a timeout, both directions
 * checked with the contract, never throws, every failure a code) and the desk's own contract (opsContract.ts). The session
 * is the HttpOnly cookie the browser sends by itself (same origin only); the client adds the session's CSRF token
 * as X-CSRF-Token. A 1002 answer tells the session it is no longer good.
 */
import { ApiCode } from '../../../api-schema/codes';
import type { Answer } from '../../../machines/shared/answer';
import { callThroughEnvelope, searchOf } from '../../api/envelopeCall';
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

/** A CSV export's filters may be '' for "any": such a field is left out of the link, as if it were not set. */
function withoutEmpty(query: object | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query ?? {}).filter(([, value]) => value !== ''));
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
  // The cookie goes to the desk's own origin only, never to another (said here, not left to fetch's default).
  const sameOrigin: typeof fetch = (input, init) => fetchImpl(input, { ...init, credentials: 'same-origin' });
  const settings = { envelopeSchema, fetchImpl: sameOrigin, timeoutMs, logger, logPrefix: 'ops api' };

  async function call<TName extends OpsEndpointName>(name: TName, parameters: OpsCallParameters<TName> = {}): Promise<Answer<OpsResult<TName>>> {
    const csrfToken = parameters.csrfToken === undefined ? getCsrfToken() : parameters.csrfToken;
    const answer = await callThroughEnvelope(settings, {
      endpoint: opsEndpoints[name],
      query: parameters.query ?? {},
      body: parameters.body,
      headers: headersFor(csrfToken),
    });
    if (answer.code === ApiCode.notSignedIn && parameters.csrfToken === undefined) onSessionRejected();
    return answer.code === ApiCode.ok ? { code: ApiCode.ok, result: answer.result as OpsResult<TName> } : { code: answer.code, result: null };
  }

  async function download(path: string, query: Record<string, string>): Promise<Blob | null> {
    try {
      const response = await sameOrigin(`${path}${searchOf(withoutEmpty(query))}`, { headers: { Accept: 'text/csv' } });
      if (response.status === 401) onSessionRejected();
      return response.ok ? await response.blob() : null;
    } catch (error) {
      logger.error(`ops api: ${path} failed`, error);
      return null;
    }
  }

  return { call, download };
}
