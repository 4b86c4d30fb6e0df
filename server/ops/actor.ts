/**
 * Who acts on an operator call (docs/API.md, "Operators"): an operator signed in with their wallet (a session), a
 * script with that operator's API key. Every act is audited under it.
 */
import type { FastifyRequest } from 'fastify';
import type { OperatorRole } from '../../api-schema/endpoint';
import { NotSignedInError } from '../errors';

/** How the operator proved who they are. */
export type OperatorCredential = 'session' | 'apiKey' | 'bootstrap' | 'cli';

export interface OperatorActor {
  /** The operator's wallet address (EIP-55). */
  address: string;
  roles: readonly OperatorRole[];
  via: OperatorCredential;
  /** The session's token hash or the API key's id: what "sign out" or "revoke" ends. Empty for the CLI. */
  credentialId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    operator: OperatorActor | null;
  }
}

/**
 * Whether an actor holds a role: `admin` holds every role.
 *
 * @example
 * holdsRole({ roles: ['admin'] }, 'finance'); // true
 */
export function holdsRole(actor: Pick<OperatorActor, 'roles'>, role: OperatorRole): boolean {
  return actor.roles.includes('admin') || actor.roles.includes(role);
}

/**
 * The operator of an operator call (the access hook has already refused anyone else).
 *
 * @param request - the request
 * @returns the actor
 * @throws NotSignedInError when called on a route that is not an operator call
 * @example
 * const actor = requireOperator(request);
 */
export function requireOperator(request: FastifyRequest): OperatorActor {
  if (!request.operator) throw new NotSignedInError();
  return request.operator;
}

/** Resolves an operator call's credential (the session cookie's token, or an API key sent as bearer) to its actor. */
export interface OperatorResolver {
  resolve(bearer: string, now: Date): Promise<OperatorActor | undefined>;
}
