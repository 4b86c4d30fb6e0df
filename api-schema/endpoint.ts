import type { ZodMiniType } from 'zod/mini';

/**
 * Who may call an endpoint: anyone, any valid token (temporary or main), only a bound member's token (API.md: "a
 * temporary token may only bind, read meInfo and read public data"), or an operator with X-Admin-Token (API.md,
 * "Operations").
 */
export type EndpointAccess = 'public' | 'token' | 'member' | 'admin';

export interface Endpoint<
  TQuery extends ZodMiniType | undefined = ZodMiniType | undefined,
  TBody extends ZodMiniType | undefined = ZodMiniType | undefined,
  TResult extends ZodMiniType = ZodMiniType,
> {
  method: 'GET' | 'POST';
  path: string;
  access: EndpointAccess;
  summary: string;
  query: TQuery;
  body: TBody;
  result: TResult;
}

/**
 * Declares an endpoint with its schemas, keeping their exact types. Marked free of side effects so that the
 * bundler drops the endpoints a client bundle never imports (the zod/mini builders are marked the same way).
 */
// @__NO_SIDE_EFFECTS__
export function defineEndpoint<
  TQuery extends ZodMiniType | undefined,
  TBody extends ZodMiniType | undefined,
  TResult extends ZodMiniType,
>(endpoint: Endpoint<TQuery, TBody, TResult>): Endpoint<TQuery, TBody, TResult> {
  return endpoint;
}
