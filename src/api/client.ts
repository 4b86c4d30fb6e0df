import type * as z from 'zod/mini';
import { ApiCode } from '../../api-schema/codes';
import type { Endpoint } from '../../api-schema/endpoint';
import type { MemberEndpointName as EndpointName, MemberEndpoints as Endpoints } from '../../api-schema/memberEndpoints';
import { loadClientContract, loadConfigContract } from './contractLoader';
import { callThroughEnvelope } from './envelopeCall';

/**
 * The API client (spec sections 6-8, docs/API.md "Envelope"): one base path, JSON, a 50 s timeout, the Authorization
 * header from the stored token, both directions validated with the contract schemas (envelopeCall.ts, shared with
 * the desk's client), and a translated `message` on every result. It never throws: every failure is a code (request errors are only logged, spec section 8).
 * Endpoints are named, not imported: their schemas load with the first call (src/api/contractLoader.ts).
 */

/** What every call resolves to. `result` is set only when `code` is 0. */
export interface ApiResult<T> {
  code: number;
  message: string;
  result?: T;
}

/** A failed result with one of the codes a call can give (each call file names its codes). */
export interface ApiFailure<TCode extends number = number> {
  code: TCode;
  message: string;
  result?: undefined;
}

type Field<TName extends string, TSchema> = TSchema extends z.ZodMiniType
  ? undefined extends z.input<TSchema>
    ? { [K in TName]?: z.input<TSchema> }
    : { [K in TName]: z.input<TSchema> }
  : { [K in TName]?: undefined };

/** The query and body of a call, typed by the endpoint's schemas. */
export type CallParameters<TEndpoint extends Endpoint> = Field<'query', TEndpoint['query']> & Field<'body', TEndpoint['body']>;
/** The parsed result type of an endpoint. */
export type EndpointResult<TEndpoint extends Endpoint> = z.output<TEndpoint['result']>;
type CallArguments<TEndpoint extends Endpoint> = object extends CallParameters<TEndpoint>
  ? [parameters?: CallParameters<TEndpoint>]
  : [parameters: CallParameters<TEndpoint>];

export interface ApiClient {
  /** Calls one endpoint of api-schema/endpoints.ts by its name (e.g. 'meInfo'). Never rejects. */
  call<TName extends EndpointName>(name: TName, ...args: CallArguments<Endpoints[TName]>): Promise<ApiResult<EndpointResult<Endpoints[TName]>>>;
}

export interface ApiLogger {
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export interface CreateApiClientParameters {
  /** Prefix of every path (default '', same origin). */
  baseUrl?: string | undefined;
  /** The raw stored token: main token, else temporary token, else null. Quotes are removed here. */
  getAuthorization: () => string | null;
  /** i18next's t: returns the key itself when a text is missing. */
  translate: (key: string) => string;
  fetchImpl?: typeof fetch | undefined;
  /** Default 50 s (spec section 9). */
  timeoutMs?: number | undefined;
  logger?: ApiLogger | undefined;
}

export type CreateApiClientReturnType = ApiClient;
/** Creating the client never throws. */
export type CreateApiClientErrorType = never;

/**
 * Creates the API client.
 *
 * @param parameters - Base URL, token source, translator, and optionally fetch, timeout and logger.
 * @returns The client; its `call` resolves to `{ code, message, result? }` and never rejects.
 * @example
 * const api = createApiClient({ getAuthorization: () => storage.readAuthorization(), translate: (key) => i18n.t(key) });
 * const { code, result } = await api.call('meInfo');
 */
export function createApiClient({
  baseUrl = '',
  getAuthorization,
  translate,
  fetchImpl = (input, init) => globalThis.fetch(input, init),
  timeoutMs = 50_000,
  logger = console,
}: CreateApiClientParameters): CreateApiClientReturnType {
  const messageOf = (code: number): string => {
    const key = `Common.${code}`;
    const text = translate(key);
    return text && text !== key ? text : translate('Common.unknown');
  };
  const done = <T>(code: number, result?: T): ApiResult<T> =>
    result === undefined ? { code, message: messageOf(code) } : { code, message: messageOf(code), result };

  async function call<TName extends EndpointName>(
    name: TName,
    ...[parameters]: CallArguments<Endpoints[TName]>
  ): Promise<ApiResult<EndpointResult<Endpoints[TName]>>> {
    let contract: { endpoints: Partial<Record<EndpointName, Endpoint>>; envelopeSchema: Awaited<ReturnType<typeof loadConfigContract>>['envelopeSchema'] };
    try {
      // The app config's call needs only its own schemas: a first visit's /login loads no other (contractLoader.ts).
      const config = await loadConfigContract();
      contract = name in config.endpoints ? config : await loadClientContract();
    } catch (error) {
      logger.error(`api: ${name} not sent, the contract module did not load`, error);
      return done(ApiCode.clientFailure);
    }
    const endpoint = contract.endpoints[name];
    if (!endpoint) {
      logger.error(`api: ${name} not sent, the contract has no such endpoint`);
      return done(ApiCode.clientFailure);
    }
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = getAuthorization()?.replaceAll('"', '').trim();
    if (token) headers.Authorization = token;
    const answer = await callThroughEnvelope(
      { envelopeSchema: contract.envelopeSchema, fetchImpl, timeoutMs, logger, logPrefix: 'api', baseUrl },
      { endpoint, query: parameters?.query, body: parameters?.body, headers },
    );
    return done(answer.code, answer.result as EndpointResult<Endpoints[TName]> | undefined);
  }

  return { call };
}
