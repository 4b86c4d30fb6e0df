/**
 * Operators sign in with their own wallets (docs/API.md, "Operators"): the members' strict SIWE verifier
 * (verifySignedMessage: parser, domain, URI, time, signer, smart accounts), the statement
 * "Sign in to the Member DApp operators' desk." and nothing else, nonces and sessions in tables of their own. Only a
 * current operator gets a session: anyone else gets 1006 once the signature proved the address is theirs (their
 * nonce stays unused). A session token is `mdo_` and 32 random bytes; only its sha256 is stored; it lives 12 hours,
 * in the desk's HttpOnly cookie (sessionCookie.ts), never in an answer.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { OperatorRole } from '../../api-schema/endpoint';
import { OPERATOR_SIGN_IN_STATEMENT } from '../../api-schema/ops';
import { NONCE_TTL_MS, type IssuedNonce } from '../auth/nonces';
import { refuseStale, verifySignedMessage, type SignInInput } from '../auth/signIn';
import { hashToken } from '../auth/tokens';
import { queryRows, type Db } from '../db/client';
import { operatorNonces, operatorSessions } from '../db/schema';
import { RoleRequiredError } from '../errors';
import { z } from 'zod';
import { currentOperator } from './operators';

export const OPERATOR_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Session tokens start with this, API keys with `mdk_`: the resolver tells them apart without a lookup. */
export const SESSION_PREFIX = 'mdo_';

/**
 * Issues an operator sign-in nonce (any address: whether it is an operator is told only after a valid signature).
 * Expired nonces are swept on the way: operators sign in seldom.
 *
 * @param db - database handle
 * @param address - EIP-55
 * @param now - the current instant
 * @returns the nonce and its validity
 * @example
 * const { nonce } = await issueOperatorNonce(db, address, new Date());
 */
export async function issueOperatorNonce(db: Db, address: string, now: Date): Promise<IssuedNonce> {
  const nonce = randomBytes(16).toString('hex');
  const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
  await db.delete(operatorNonces).where(lt(operatorNonces.expiresAt, now));
  await db.insert(operatorNonces).values({ value: nonce, address, createdAt: now, expiresAt });
  return { nonce, issuedAt: now.toISOString(), expirationTime: expiresAt.toISOString() };
}

export interface OperatorSignedIn {
  token: string;
  tokenHash: string;
  expiresAt: Date;
  operator: { address: string; roles: OperatorRole[] };
}

const startedRow = z.object({ address: z.string(), roles: z.array(z.string()) });

/**
 * Verifies a signed operator message and opens a session: in one statement, when the app config names the
 * message's chain and the address is a current operator, the nonce is used and the session stored.
 *
 * @param db - database handle
 * @param input - message, signature, expected site, chain, time
 * @returns the session token (shown once) and the operator
 * @throws InvalidParametersError (1001), SignatureInvalidError (1005: also any other statement), NonceInvalidError
 *   (1004), RoleRequiredError (1006: not a current operator), ChainUnavailableError (3007)
 * @example
 * const { token } = await signInOperator(db, { message, signature, expectedDomain: 'member.example', now });
 */
export async function signInOperator(db: Db, input: Omit<SignInInput, 'inviteCode'>): Promise<OperatorSignedIn> {
  const { now } = input;
  const fields = await verifySignedMessage(db, input, (statement) => statement === OPERATOR_SIGN_IN_STATEMENT);
  const token = `${SESSION_PREFIX}${randomBytes(32).toString('base64url')}`;
  const tokenHash = hashToken(token);
  const expiresAt = new Date(now.getTime() + OPERATOR_SESSION_TTL_MS);
  const at = now.toISOString();
  const [row] = await queryRows(
    db,
    sql`WITH operator AS (
          SELECT address, roles FROM operators WHERE address = ${fields.address} AND removed_at IS NULL
        ), used AS (
          UPDATE operator_nonces SET used_at = ${at}::timestamptz
          WHERE value = ${fields.nonce} AND address = ${fields.address} AND used_at IS NULL AND expires_at > ${at}::timestamptz
            AND EXISTS (SELECT 1 FROM operator)
            AND EXISTS (SELECT 1 FROM app_config WHERE id = 1 AND value -> 'chainId' = ${JSON.stringify(fields.chainId)}::jsonb)
          RETURNING address
        ), session AS (
          INSERT INTO operator_sessions (hash, address, created_at, expires_at)
          SELECT ${tokenHash}, address, ${at}::timestamptz, ${expiresAt.toISOString()}::timestamptz FROM used
          RETURNING address
        )
        SELECT operator.address, operator.roles FROM operator JOIN session ON session.address = operator.address`,
    startedRow,
  );
  if (!row) {
    if (!(await currentOperator(db, fields.address))) throw new RoleRequiredError();
    return refuseStale(db, fields.chainId);
  }
  return { token, tokenHash, expiresAt, operator: { address: row.address, roles: row.roles as OperatorRole[] } };
}

/**
 * Ends a session (logout). Ending it twice is harmless.
 *
 * @param db - database handle
 * @param tokenHash - the session's hash (the actor's credentialId)
 * @param now - the current instant
 * @returns whether a live session ended
 * @example
 * await endOperatorSession(db, actor.credentialId, new Date());
 */
export async function endOperatorSession(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const ended = await db
    .update(operatorSessions)
    .set({ revokedAt: now })
    .where(and(eq(operatorSessions.hash, tokenHash), isNull(operatorSessions.revokedAt)))
    .returning({ hash: operatorSessions.hash });
  return ended.length > 0;
}
