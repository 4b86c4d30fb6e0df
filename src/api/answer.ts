import type * as z from 'zod/mini';
import type { MemberEndpointName as EndpointName, MemberEndpoints as Endpoints } from '../../api-schema/memberEndpoints';
import type { Answer } from '../../machines/shared/answer';
import type { ApiResult, EndpointResult } from './client';

/**
 * The one envelope-to-answer adapter: what the API client resolves with, as the machines' actors answer (the result
 * only with code 0, else null).
 *
 * @example
 * const answer = toAnswer(await getDappParam(api)); // { code: 0, result: { chainId: 56, … } }
 */
export function toAnswer<T>(result: ApiResult<T>): Answer<T> {
  return { code: result.code, result: result.code === 0 && result.result !== undefined ? result.result : null };
}

/** An endpoint's result, as its api-schema contract parses it. */
export type ResultOf<TName extends EndpointName> = EndpointResult<Endpoints[TName]>;

/** A list endpoint's item. */
export type ItemOf<TName extends EndpointName> = ResultOf<TName> extends { list: readonly (infer TItem)[] } ? TItem : never;

type SchemaInput<TSchema> = TSchema extends z.ZodMiniType ? z.input<TSchema> : never;

/** An endpoint's query, as the contract accepts it. */
export type QueryOf<TName extends EndpointName> = SchemaInput<Endpoints[TName]['query']>;

/** An endpoint's body, as the contract accepts it. */
export type BodyOf<TName extends EndpointName> = SchemaInput<Endpoints[TName]['body']>;
