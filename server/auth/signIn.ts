/**
 * Sign-In with Ethereum: the strict parser, then the bindings the server cares about, then the signer through local
 * ecrecover (libsecp256k1, or viem in a worker thread: signerRecovery.ts) or, when that is not the claimed address
 * and the server has a chain, the account's own code on the chain (a smart-account wallet: contractSigner.ts), and
 * only then one statement that checks the chain against the app config, uses the nonce, finds or creates the member
 * and stores the token (with an invite code to bind, that statement and the bind share a transaction). A refused
 * attempt therefore writes nothing, and a failure gives the nonce back.
 */
import { sql } from 'drizzle-orm';
import type { Address, PublicClient } from 'viem';
import { z } from 'zod';
import { OPERATOR_SIGN_IN_STATEMENT } from '../../api-schema/ops';
import { getAppConfig } from '../config/appConfig';
import { PgDialect } from 'drizzle-orm/pg-core';
import { preparedPerDb, rowsOf, type Db } from '../db/client';
import { appConfig, members, nonces, tokens } from '../db/schema';
import { InvalidParametersError, NonceInvalidError, SignatureInvalidError } from '../errors';
import { randomInviteCode } from '../members/inviteCode';
import { isBound } from '../members/members';
import { bindRecommender } from '../members/tree';
import { SiweFormatError } from '../siwe/errors';
import { parseSiweMessage } from '../siwe/parse';
import type { SiweFields } from '../siwe/types';
import { issuedAtOf, isWithinValidity } from '../siwe/verify';
import { isSignedByContract } from './contractSigner';
import { signerRecovery } from './signerRecovery';
import { newToken } from './tokens';

/** A wallet clock may run a little ahead of ours. */
export const ISSUED_AT_SKEW_MS = 60 * 1000;
/** A message must be signed within the nonce's lifetime. */
export const MESSAGE_MAX_AGE_MS = 5 * 60 * 1000;

export interface SignInInput {
  message: string;
  signature: string;
  inviteCode?: string | undefined;
  /**
   * The domain the message must name: the request's host when it is an allowed sign-in site (signInSites.ts);
   * undefined when it is not, and then every message is refused with 1005.
   */
  expectedDomain: string | undefined;
  /** The URI's scheme when the site's is known (PUBLIC_URL); undefined accepts http: and https:. */
  expectedProtocol?: 'http:' | 'https:' | undefined;
  /** The app chain's client, to verify smart-account wallets (ERC-1271, ERC-6492); without it only EOAs sign in. */
  chain?: PublicClient | undefined;
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
 * Domain and URI: a message made for another site is refused with 1005 (docs/API.md, "Codes"). The domain must be the
 * allowed site the request came to, the URI an http(s) URL on that same authority (with the site's scheme when
 * known). The chain, the third binding, is checked against the app config by the sign-in statement itself
 * (startSession), so a sign-in reads the config without a statement of its own.
 */
function checkBindings(fields: SiweFields, expectedDomain: string | undefined, expectedProtocol: string | undefined): void {
  if (expectedDomain === undefined) throw new SignatureInvalidError();
  const domain = expectedDomain.toLowerCase();
  if (fields.domain.toLowerCase() !== domain) throw new SignatureInvalidError();
  const url = urlOf(fields.uri);
  if (url?.host.toLowerCase() !== domain) throw new SignatureInvalidError();
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SignatureInvalidError();
  if (expectedProtocol !== undefined && url.protocol !== expectedProtocol) throw new SignatureInvalidError();
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

/**
 * Refuses a sign-in whose message is stale or whose nonce was not usable: 1005 when the message names another
 * chain than the app config (a wrong chain outranks the 1004 of a stale message, as the order of the checks has
 * always said), else 1004.
 */
export async function refuseStale(db: Db, chainId: number): Promise<never> {
  const config = await getAppConfig(db);
  if (chainId !== config.chainId) throw new SignatureInvalidError();
  throw new NonceInvalidError();
}

const sessionRow = z.object({
  memberId: z.number().int(),
  recommenderId: z.number().int().nullable(),
  isRoot: z.boolean(),
});

interface SessionInput {
  nonce: string;
  /** EIP-55, as the strict parser guarantees. */
  address: string;
  chainId: number;
  now: Date;
}

const placeholder = (name: string) => sql.placeholder(name);

/**
 * The writes of a sign-in, in one statement (see startSession). Built once per database handle: a sign-in would
 * otherwise spend more CPU assembling it than PGlite spends planning it, and node-postgres keeps it prepared.
 */
const sessionStatementOf = preparedPerDb((db) =>
  db._.session.prepareQuery(
    new PgDialect().sqlToQuery(
      sql`WITH used AS (
            UPDATE ${nonces} SET used_at = ${placeholder('now')}::timestamptz
            WHERE value = ${placeholder('nonce')}::text AND address = ${placeholder('address')}::text
              AND used_at IS NULL AND expires_at > ${placeholder('now')}::timestamptz
              AND EXISTS (SELECT 1 FROM ${appConfig} WHERE id = 1 AND value -> 'chainId' = ${placeholder('chainId')}::jsonb)
            RETURNING address
          ), found AS (
            SELECT m.id, m.recommender_id, m.is_root FROM ${members} m JOIN used ON m.address = used.address
          ), created AS (
            INSERT INTO ${members} (address, invite_code, created_at)
            SELECT address, ${placeholder('inviteCode')}::text, ${placeholder('now')}::timestamptz FROM used
            WHERE NOT EXISTS (SELECT 1 FROM found)
            ON CONFLICT (address) DO UPDATE SET address = excluded.address
            RETURNING id, recommender_id, is_root
          ), member AS (
            SELECT id, recommender_id, is_root FROM found
            UNION ALL
            SELECT id, recommender_id, is_root FROM created
          ), token AS (
            INSERT INTO ${tokens} (hash, member_id, created_at, expires_at)
            SELECT ${placeholder('tokenHash')}::text, id, ${placeholder('now')}::timestamptz, ${placeholder('tokenExpiresAt')}::timestamptz
            FROM member
            RETURNING member_id
          )
          SELECT member.id AS "memberId", member.recommender_id AS "recommenderId", member.is_root AS "isRoot"
          FROM member JOIN token ON token.member_id = member.id`,
    ),
    undefined,
    'start_session',
    false,
  ),
);

/**
 * The writes of a sign-in, in one statement: when the app config names the message's chain, the nonce (unused,
 * unexpired, issued for this address) is marked used; only then is the member found or created with a fresh
 * invite code, and a token stored for it. One statement is atomic on its own, and of two requests racing with one
 * nonce exactly one matches the UPDATE (the other waits for the row lock, then no longer matches). A member
 * created meanwhile by another request is taken over through ON CONFLICT (address); a colliding invite code fails
 * the statement, which then wrote nothing, and the caller tries again with another code. When nothing was written,
 * the config is read to tell a wrong chain (1005) from a bad nonce (1004).
 *
 * @param db - database or transaction handle
 * @param input - the message's nonce, address and chain, and the time
 * @param inviteCode - the invite code for a new member
 * @returns the token and the member's bind state
 * @throws Error when the app config is missing or malformed; SignatureInvalidError (1005) for another chain;
 *   NonceInvalidError (1004) for an unknown, used or expired nonce
 */
async function startSession(db: Db, input: SessionInput, inviteCode: string): Promise<{ auth: string; memberId: number; bound: boolean }> {
  const { now } = input;
  const token = newToken(now);
  const result = await sessionStatementOf(db).execute({
    now,
    nonce: input.nonce,
    address: input.address,
    chainId: JSON.stringify(input.chainId),
    inviteCode,
    tokenHash: token.hash,
    tokenExpiresAt: token.expiresAt,
  });
  const [row] = rowsOf(result, sessionRow);
  if (!row) return refuseStale(db, input.chainId);
  return { auth: token.token, memberId: row.memberId, bound: isBound(row) };
}

/**
 * Everything a sign-in checks before it writes, for members and operators alike: the strict parser (1001), the
 * statement (1005: a member's sign-in refuses the operators' statement, an operator's any other), domain and URI
 * (1005), time (1004, or 1005 for another chain), then the signer (1005). The nonce and the chain in the app config
 * are checked by the caller's own writing statement.
 *
 * @param db - database handle (reads the app config only to tell a stale message's wrong chain)
 * @param input - message, signature, the expected site, the chain for smart accounts, the time
 * @param statementAllowed - whether the message's statement (undefined when it has none) is one this sign-in takes
 * @returns the message's fields
 * @throws InvalidParametersError, SignatureInvalidError, NonceInvalidError, ChainUnavailableError as signIn
 * @example
 * const fields = await verifySignedMessage(db, input, (statement) => statement === OPERATOR_SIGN_IN_STATEMENT);
 */
export async function verifySignedMessage(
  db: Db,
  input: Omit<SignInInput, 'inviteCode'>,
  statementAllowed: (statement: string | undefined) => boolean,
): Promise<SiweFields> {
  const fields = parseStrictly(input.message);
  if (!statementAllowed(fields.statement)) throw new SignatureInvalidError();
  checkBindings(fields, input.expectedDomain, input.expectedProtocol);
  if (!isFresh(fields, input.now)) return refuseStale(db, fields.chainId);

  // libsecp256k1 on this thread (about 0.1 ms), or viem's fallback in a worker thread (about 3 ms): signerRecovery.ts.
  const signer = await (await signerRecovery()).recover(input.message, input.signature);
  // Both are EIP-55: the parser requires the checksum, the recovery returns it. Anything else may be a contract account.
  if (signer !== fields.address && !(await isSignedOnChain(input, fields))) throw new SignatureInvalidError();
  return fields;
}

/** Whether the claimed account is a contract that accepts the signature (false without a chain). */
async function isSignedOnChain(input: Omit<SignInInput, 'inviteCode'>, fields: SiweFields): Promise<boolean> {
  if (!input.chain) return false;
  return isSignedByContract(input.chain, { address: fields.address as Address, message: input.message, signature: input.signature });
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
 *   domain, URI or chain, NonceInvalidError (1004) for an unknown, used or expired nonce or message,
 *   ChainUnavailableError (3007) when the chain was asked about a contract account and did not answer
 * @example
 * const { auth, isFinishedBind } = await signIn(db, { message, signature, expectedDomain: 'member.example', now });
 */
export async function signIn(db: Db, input: SignInInput): Promise<SignInResult> {
  const { now } = input;
  const fields = await verifySignedMessage(db, input, (statement) => statement !== OPERATOR_SIGN_IN_STATEMENT);
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
