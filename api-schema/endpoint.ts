import type { ZodMiniType } from 'zod/mini';

/** The operators' roles (docs/API.md, "Operators"); `admin` holds every role. */
export const operatorRoles = ['finance', 'support', 'content', 'admin'] as const;
export type OperatorRole = (typeof operatorRoles)[number];

/**
 * An operator call: `operator` lets any signed-in operator in (their own session, keys), `operator:<role>` only an
 * operator holding that role or `admin`, `operator:<role>,<role>` one holding either (or `admin`).
 */
export type OperatorAccess = 'operator' | `operator:${OperatorRole}` | 'operator:finance,support' | 'operator:content,finance';

/**
 * Who may call an endpoint: anyone, any valid token (temporary or main), only a bound member's token (docs/API.md: "a
 * temporary token may only bind, read meInfo and read public data"), or an operator (docs/API.md, "Operators").
 * A member's token never opens an operator call, nor an operator's a member call.
 */
export type EndpointAccess = 'public' | 'token' | 'member' | OperatorAccess;

/**
 * Whether an access level is an operator call, and the roles that may make it besides `admin` (undefined: any
 * operator).
 *
 * @example
 * operatorRolesOf('operator:finance,support'); // { roles: ['finance', 'support'] }
 * operatorRolesOf('member'); // undefined
 */
export function operatorRolesOf(access: EndpointAccess): { roles: readonly OperatorRole[] | undefined } | undefined {
  if (access === 'operator') return { roles: undefined };
  if (access.startsWith('operator:')) return { roles: access.slice('operator:'.length).split(',') as OperatorRole[] };
  return undefined;
}

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
