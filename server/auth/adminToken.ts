/**
 * The operator's token (docs/API.md, "Operations"): ADMIN_TOKEN from the environment, at least 32 characters, sent as
 * X-Admin-Token. Compared in constant time over sha256 digests, so neither the content nor the length of the
 * expected token leaks through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The shortest ADMIN_TOKEN accepted. */
export const ADMIN_TOKEN_MIN_LENGTH = 32;

export interface AdminToken {
  /** Whether a presented X-Admin-Token is the operator's. */
  matches(presented: string | string[] | undefined): boolean;
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Builds the checker of ADMIN_TOKEN.
 *
 * @param token - ADMIN_TOKEN (at least 32 characters)
 * @returns the checker
 * @throws Error when the token is shorter than 32 characters
 * @example
 * const admin = adminTokenOf(env.ADMIN_TOKEN); admin.matches(request.headers['x-admin-token']);
 */
export function adminTokenOf(token: string): AdminToken {
  if (token.length < ADMIN_TOKEN_MIN_LENGTH) throw new Error(`ADMIN_TOKEN must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters`);
  const expected = digest(token);
  return {
    matches: (presented) => typeof presented === 'string' && timingSafeEqual(digest(presented), expected),
  };
}
