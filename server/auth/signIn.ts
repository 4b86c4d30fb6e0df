/**
 * Sign-In with Ethereum, entirely offline: the strict parser, then the bindings the server cares about, then the
 * signer through local ecrecover (in a worker thread, signerPool.ts), and only then one statement that checks the
 * chain against the app config, uses the nonce, finds or creates the member and stores the token (with an invite
 * code to bind, that statement and the bind share a transaction). A refused attempt therefore writes nothing, and
 * a failure gives the nonce back.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { getAppConfig } from '../config/appConfig';
import { queryRows, type Db } from '../db/client';
import { members, nonces, tokens } from '../db/schema';
import { InvalidParametersError, NonceInvalidError, SignatureInvalidError } from '../errors';
import { randomInviteCode } from '../members/inviteCode';
import { isBound } from '../members/members';
import { bindRecommender } from '../members/tree';
import { SiweFormatError } from '../siwe/errors';
import { parseSiweMessage } from '../siwe/parse';
import type { SiweFields } from '../siwe/types';
import { issuedAtOf, isWithinValidity } from '../siwe/verify';
import { signerPool } from './signerPool';
import { newToken } from './tokens';

/** A wallet clock may run a little ahead of ours. */
export const ISSUED_AT_SKEW_MS = 60 * 1000;
/** A message must be signed within the nonce's lifetime. */
export const MESSAGE_MAX_AGE_MS = 5 * 60 * 1000;

export interface SignInInput {
  message: string;
  signature: string;
  inviteCode?: string | undefined;
  /** The domain the message must name: SIWE_DOMAIN, else the Host the request came to. */
  expectedDomain: string;
  now: Date;
}

export interface SignInResult {
  auth: string;
  isFinishedBind: boolean;
}

function parseStrictly(message: string): SiweFields {
  try {
    return parseSiweMessage(message);
  } catch (error) {
    if (error instanceof SiweFormatError) throw new InvalidParametersError('message');
    throw error;
  }
}

function urlOf(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/**
 * Domain and URI: a message made for another site is refused with 1005 (API.md, "Codes"). The chain, the third
 * binding, is checked against the app config by the sign-in statement itself (startSession), so a sign-in reads
 * the config without a statement of its own.
 */
function checkBindings(fields: SiweFields, expectedDomain: string): void {
  const domain = expectedDomain.toLowerCase();
  if (fields.domain.toLowerCase() !== domain) throw new SignatureInvalidError();
  const url = urlOf(fields.uri);
  if (url?.host.toLowerCase() !== domain) throw new SignatureInvalidError();
  if (fields.scheme !== undefined && `${fields.scheme}:` !== url.protocol) throw new SignatureInvalidError();
}

/**
 * Time: issued at most 60 s in the future and at most 5 minutes ago, inside expirationTime and notBefore. A message
 * outside its window needs a fresh nonce and signature, which is what 1004 tells the client.
 */
function isFresh(fields: SiweFields, now: Date): boolean {
  const age = now.getTime() - issuedAtOf(fields).getTime();
  if (age < -ISSUED_AT_SKEW_MS || age > MESSAGE_MAX_AGE_MS) return false;
  return isWithinValidity(fields, now);
}

/** A wrong chain is 1005 and outranks the 1004 of a stale message, as the order of the checks has always said. */
async function refuseStale(db: Db, fields: SiweFields): Promise<never> {
  const config = await getAppConfig(db);
  if (fields.chainId !== config.chainId) throw new SignatureInvalidError();
  throw new NonceInvalidError();
}

const sessionRow = z.object({
  configured: z.boolean(),
  configChainId: z.unknown(),
  used: z.boolean(),
  memberId: z.number().int().nullable(),
  recommenderId: z.number().int().nullable(),
  isRoot: z.boolean().nullable(),
});

interface SessionInput {
  nonce: string;
  /** EIP-55, as the strict parser guarantees. */
  address: string;
  chainId: number;
  now: Date;
}

/**
 * The writes of a sign-in, in one statement: when the app config names the message's chain, the nonce (unused,
 * unexpired, issued for this address) is marked used; only then is the member found or created with a fresh
 * invite code, and a token stored for it. One statement is atomic on its own, and of two requests racing with one
 * nonce exactly one matches the UPDATE (the other waits for the row lock, then no longer matches). A member
 * created meanwhile by another request is taken over through ON CONFLICT (address); a colliding invite code fails
 * the statement, which then wrote nothing, and the caller tries again with another code.
 *
 * @param db - database or transaction handle
 * @param input - the message's nonce, address and chain, and the time
 * @param inviteCode - the invite code for a new member
 * @returns the token and the member's bind state
 * @throws Error when the app config is missing or malformed; SignatureInvalidError (1005) for another chain;
 *   NonceInvalidError (1004) for an unknown, used or expired nonce
 */
async function startSession(db: Db, input: SessionInput, inviteCode: string): Promise<{ auth: string; memberId: number; bound: boolean }> {
  const { nonce, address, now } = input;
  const token = newToken(now);
  const [row] = await queryRows(
    db,
    sql`WITH config AS (
          SELECT value -> 'chainId' AS chain_id FROM app_config WHERE id = 1
        ), used AS (
          UPDATE ${nonces} SET used_at = ${now}::timestamptz
          WHERE value = ${nonce}::text AND address = ${address}::text AND used_at IS NULL AND expires_at > ${now}::timestamptz
            AND (SELECT chain_id FROM config) = ${JSON.stringify(input.chainId)}::jsonb
          RETURNING value
        ), found AS (
          SELECT id, recommender_id, is_root FROM ${members} WHERE address = ${address}::text
        ), created AS (
          INSERT INTO ${members} (address, invite_code, created_at)
          SELECT ${address}::text, ${inviteCode}::text, ${now}::timestamptz
          WHERE EXISTS (SELECT 1 FROM used) AND NOT EXISTS (SELECT 1 FROM found)
          ON CONFLICT (address) DO UPDATE SET address = excluded.address
          RETURNING id, recommender_id, is_root
        ), member AS (
          SELECT id, recommender_id, is_root FROM found WHERE EXISTS (SELECT 1 FROM used)
          UNION ALL
          SELECT id, recommender_id, is_root FROM created
        ), token AS (
          INSERT INTO ${tokens} (hash, member_id, created_at, expires_at)
          SELECT ${token.hash}::text, id, ${now}::timestamptz, ${token.expiresAt}::timestamptz FROM member
          RETURNING member_id
        )
        SELECT EXISTS (SELECT 1 FROM config) AS "configured",
          (SELECT chain_id FROM config) AS "configChainId",
          EXISTS (SELECT 1 FROM used) AS "used",
          token.member_id AS "memberId", member.recommender_id AS "recommenderId", member.is_root AS "isRoot"
        FROM (SELECT 1) AS one
        LEFT JOIN token ON true
        LEFT JOIN member ON member.id = token.member_id`,
    sessionRow,
  );
  if (!row?.configured) throw new Error('app_config is empty: run the seed');
  if (!row.used) {
    if (typeof row.configChainId !== 'number') throw new Error('app_config is malformed: chainId is not a number');
    if (row.configChainId !== input.chainId) throw new SignatureInvalidError();
    throw new NonceInvalidError();
  }
  if (row.memberId === null) throw new Error('sign-in stored no token');
  return { auth: token.token, memberId: row.memberId, bound: isBound({ recommenderId: row.recommenderId, isRoot: row.isRoot === true }) };
}

/** Whether a failure is the unique invite code of a new member colliding with an existing one. */
function isInviteCodeCollision(error: unknown): boolean {
  for (let cause: unknown = error; typeof cause === 'object' && cause !== null; cause = (cause as { cause?: unknown }).cause) {
    if ('constraint' in cause && cause.constraint === 'members_invite_code_unique') return true;
  }
  return false;
}

/**
 * Verifies a signed EIP-4361 message and signs the member in.
 *
 * @param db - database handle
 * @param input - message, signature, optional invite code, the expected domain and the time
 * @returns a new token and whether the member is bound
 * @throws InvalidParametersError (1001) for a malformed message, SignatureInvalidError (1005) for a wrong signer,
 *   domain, URI or chain, NonceInvalidError (1004) for an unknown, used or expired nonce or message
 * @example
 * const { auth, isFinishedBind } = await signIn(db, { message, signature, expectedDomain: 'member.example', now });
 */
export async function signIn(db: Db, input: SignInInput): Promise<SignInResult> {
  const { now } = input;
  const fields = parseStrictly(input.message);
  checkBindings(fields, input.expectedDomain);
  if (!isFresh(fields, now)) return refuseStale(db, fields);

  // The one costly step (about 5 ms of CPU), in a worker thread so the event loop serves other requests meanwhile.
  const signer = await signerPool.recover(input.message, input.signature);
  // Both are EIP-55: the parser requires the checksum and viem returns it.
  if (signer !== fields.address) throw new SignatureInvalidError();
  const session: SessionInput = { nonce: fields.nonce, address: fields.address, chainId: fields.chainId, now };
  const { inviteCode } = input;

  for (let attempt = 1; ; attempt++) {
    try {
      if (inviteCode === undefined) {
        const { auth, bound } = await startSession(db, session, randomInviteCode());
        return { auth, isFinishedBind: bound };
      }
      return await db.transaction(async (tx) => {
        const { auth, memberId, bound } = await startSession(tx, session, randomInviteCode());
        // An invite code that is unknown or would make a cycle is ignored here: sign-in still succeeds and the
        // client goes on to the bind page, where bindRecommendRelation reports the exact reason.
        if (bound) return { auth, isFinishedBind: true };
        return { auth, isFinishedBind: (await bindRecommender(tx, memberId, inviteCode)) === 'bound' };
      });
    } catch (error) {
      // 36^8 codes make this rare; the failed statement (or transaction) wrote nothing, so the nonce is unused.
      if (attempt < 8 && isInviteCodeCollision(error)) continue;
      throw error;
    }
  }
}
