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
import { createBatcher } from '../ledger/batcher';
import { randomInviteCode } from '../members/inviteCode';
import { isBound } from '../members/members';
import { bindRecommender, type Binder } from '../members/tree';
import { SiweFormatError } from '../siwe/errors';
import { parseSiweMessage } from '../siwe/parse';
import type { SiweFields } from '../siwe/types';
import { issuedAtOf, isWithinValidity } from '../siwe/verify';
import { isSignedByContract } from './contractSigner';
import { signerRecovery } from './signerRecovery';
import { newToken, type NewToken } from './tokens';

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
  i: z.number().int(),
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

/** One sign-in's writes: its session, the invite code a new member gets, and the token to store. */
interface SessionItem {
  session: SessionInput;
  inviteCode: string;
  token: NewToken;
}

/** The member signed in (null: nothing was written, the nonce or the chain did not match). */
type SessionOutcome = { memberId: number; bound: boolean } | null;

/**
 * The writes of sign-ins, for every sign-in of a batch in one statement (see startSessions). Built once per database
 * handle: a sign-in would otherwise spend more CPU assembling it than PGlite spends planning it, and node-postgres
 * keeps it prepared.
 */
const sessionsStatementOf = preparedPerDb((db) =>
  db._.session.prepareQuery(
    new PgDialect().sqlToQuery(
      sql`WITH input AS (
            SELECT * FROM jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) AS x(
              i int, nonce text, address text, "chainId" jsonb, "inviteCode" text, "tokenHash" text, "tokenExpiresAt" timestamptz, now timestamptz)
          ), used AS (
            UPDATE ${nonces} n SET used_at = input.now
            FROM input
            WHERE n.value = input.nonce AND n.address = input.address AND n.used_at IS NULL AND n.expires_at > input.now
              AND EXISTS (SELECT 1 FROM ${appConfig} c WHERE c.id = 1 AND c.value -> 'chainId' = input."chainId")
            RETURNING input.i, n.address
          ), found AS (
            SELECT used.i, m.id, m.recommender_id, m.is_root FROM ${members} m JOIN used ON m.address = used.address
          ), created AS (
            INSERT INTO ${members} (address, invite_code, created_at)
            SELECT used.address, input."inviteCode", input.now FROM used JOIN input ON input.i = used.i
            WHERE NOT EXISTS (SELECT 1 FROM found WHERE found.i = used.i)
            ON CONFLICT (address) DO UPDATE SET address = excluded.address
            RETURNING id, address, recommender_id, is_root
          ), member AS (
            SELECT i, id, recommender_id, is_root FROM found
            UNION ALL
            SELECT used.i, created.id, created.recommender_id, created.is_root FROM created JOIN used ON used.address = created.address
          ), token AS (
            INSERT INTO ${tokens} (hash, member_id, created_at, expires_at)
            SELECT input."tokenHash", member.id, input.now, input."tokenExpiresAt" FROM member JOIN input ON input.i = member.i
            RETURNING hash
          )
          SELECT member.i, member.id AS "memberId", member.recommender_id AS "recommenderId", member.is_root AS "isRoot"
          FROM member JOIN input ON input.i = member.i JOIN token ON token.hash = input."tokenHash"`,
    ),
    undefined,
    'start_sessions',
    false,
  ),
);

/**
 * The writes of sign-ins, in one statement: for each sign-in whose chain the app config names, its nonce (unused,
 * unexpired, issued for this address) is marked used; only then is the member found or created with a fresh invite
 * code, and a token stored for it. One statement is atomic on its own. Of two sign-ins with one nonce exactly one
 * matches: in one statement the nonce's row is updated once, and across statements the second waits for the row
 * lock, then no longer matches. A member created meanwhile by another request is taken over through ON CONFLICT
 * (address). A colliding invite code, or one new member twice in one statement, fails the statement, which then
 * wrote nothing: the batcher runs each sign-in alone, and the caller tries a colliding code again with another.
 *
 * @param db - database or transaction handle
 * @param items - the sign-ins
 * @returns one outcome per item, in order: null when nothing was written for it
 */
async function startSessions(db: Db, items: readonly SessionItem[]): Promise<SessionOutcome[]> {
  const rows = items.map(({ session, inviteCode, token }, i) => ({
    i,
    nonce: session.nonce,
    address: session.address,
    chainId: session.chainId,
    inviteCode,
    tokenHash: token.hash,
    tokenExpiresAt: token.expiresAt.toISOString(),
    now: session.now.toISOString(),
  }));
  const result = await sessionsStatementOf(db).execute({ rows: JSON.stringify(rows) });
  const byItem = new Map(rowsOf(result, sessionRow).map((row) => [row.i, row]));
  return items.map((_, i) => {
    const row = byItem.get(i);
    return row ? { memberId: row.memberId, bound: isBound(row) } : null;
  });
}

/** Writes sign-ins' sessions: one at a time, or the requests of a turn of the event loop together (createSessionStarter). */
export interface SessionStarter {
  start(item: SessionItem): Promise<SessionOutcome>;
}

/** One sign-in's writes alone (a service call). */
const aloneOn = (db: Db): SessionStarter => ({ start: async (item) => (await startSessions(db, [item]))[0] ?? null });

/** One bind alone, in its own transaction (a service call). */
const bindsAloneOn = (db: Db): Binder => ({ bind: (memberId, inviteCode) => db.transaction((tx) => bindRecommender(tx, memberId, inviteCode)) });

/**
 * memberSignLogin's sessions, batched (ADR 0012's group commit, as loginNonce's nonces): the sign-ins that arrive in
 * one turn of the event loop are written by one statement and one commit. On PGlite the statement's fixed cost and
 * its commit were most of a sign-in's database time.
 *
 * @param db - database handle
 * @param maxInFlight - batches at once (BATCHES_IN_FLIGHT of the driver)
 * @returns the starter
 * @example
 * const signedIn = await signIn(db, input, createSessionStarter(db, 1));
 */
export function createSessionStarter(db: Db, maxInFlight: number): SessionStarter {
  const batcher = createBatcher((items: SessionItem[]) => startSessions(db, items), { maxBatch: 128, maxInFlight });
  return { start: (item) => batcher.submit(item) };
}

/** A sign-in's writes, then its token and bind state; a sign-in that wrote nothing is refused (1005 or 1004). */
async function startSession(starter: SessionStarter, db: Db, session: SessionInput): Promise<{ auth: string; memberId: number; bound: boolean }> {
  const token = newToken(session.now);
  const outcome = await starter.start({ session, inviteCode: randomInviteCode(), token });
  if (!outcome) return refuseStale(db, session.chainId);
  return { auth: token.token, ...outcome };
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
 * @param sessions - how the writes go to the database (memberSignLogin's batcher; alone by default)
 * @param binds - how an invite code binds (memberSignLogin's batcher; alone by default)
 * @returns a new token and whether the member is bound
 * @throws InvalidParametersError (1001) for a malformed message, SignatureInvalidError (1005) for a wrong signer,
 *   domain, URI or chain, NonceInvalidError (1004) for an unknown, used or expired nonce or message,
 *   ChainUnavailableError (3007) when the chain was asked about a contract account and did not answer
 * @example
 * const { auth, isFinishedBind } = await signIn(db, { message, signature, expectedDomain: 'member.example', now });
 */
export async function signIn(
  db: Db,
  input: SignInInput,
  sessions: SessionStarter = aloneOn(db),
  binds: Binder = bindsAloneOn(db),
): Promise<SignInResult> {
  const { now } = input;
  const fields = await verifySignedMessage(db, input, (statement) => statement !== OPERATOR_SIGN_IN_STATEMENT);
  const session: SessionInput = { nonce: fields.nonce, address: fields.address, chainId: fields.chainId, now };
  const { inviteCode } = input;

  for (let attempt = 1; ; attempt++) {
    try {
      const { auth, memberId, bound } = await startSession(sessions, db, session);
      if (bound || inviteCode === undefined) return { auth, isFinishedBind: bound };
      // An invite code that is unknown or would make a cycle is ignored here: sign-in still succeeds and the client
      // goes on to the bind page, where bindRecommendRelation reports the exact reason. The bind is its own write,
      // after the session's (both batched): should it fail, the member is signed in, unbound, and binds on that page.
      return { auth, isFinishedBind: (await binds.bind(memberId, inviteCode)) === 'bound' };
    } catch (error) {
      // 36^8 codes make this rare; the failed statement wrote nothing, so the nonce is unused.
      if (attempt < 8 && isInviteCodeCollision(error)) continue;
      throw error;
    }
  }
}
