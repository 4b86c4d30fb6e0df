/**
 * Session tokens: 32 random bytes (base64url) handed to the client once; only their sha256 is stored, so reading
 * the database never yields a usable token. A token lives 7 days and dies at logout.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { preparedPerDb, type Db } from '../db/client';
import { createBatcher } from '../ledger/batcher';
import { memberFreezes, members, tokens } from '../db/schema';
import { creditAccount, creditAccountJoin, memberRecordColumns, recommender, wposAccount, wposAccountJoin, type MemberRecord } from '../members/members';

export const TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Who a valid token belongs to. `bound` is derived from the member, so binding upgrades the same token. */
export interface AuthContext {
  memberId: number;
  tokenHash: string;
  bound: boolean;
  /** The member as read together with the token (one statement): what meInfo answers. */
  member: MemberRecord;
  /** Whether an operator froze the member's withdrawals (server/members/freezes.ts), read in the same statement. */
  withdrawalsFrozen: boolean;
}

/**
 * Hashes a token for storage and lookup.
 *
 * @param token - the token as the client holds it
 * @returns lowercase hex sha256
 * @example
 * hashToken('abc'); // "ba7816bf..."
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Reads the token from an Authorization header: the bare token with any quotes removed (the SPA stores it
 * JSON-encoded, spec section 7), or "Bearer <token>".
 *
 * @param header - the header value
 * @returns the token, or undefined when the header is absent or empty
 * @example
 * tokenFromHeader('"abc"'); // "abc"
 * tokenFromHeader('Bearer abc'); // "abc"
 */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const token = header.replace(/^\s*bearer\s+/i, '').replaceAll('"', '').trim();
  return token.length > 0 && token.length <= 512 ? token : undefined;
}

export interface NewToken {
  /** Given to the client once, never stored. */
  token: string;
  /** What is stored (hashToken of the token). */
  hash: string;
  expiresAt: Date;
}

/**
 * Draws a new token: 32 random bytes, its hash and its expiry.
 *
 * @param now - the current instant
 * @returns the token, its hash and when it expires
 * @example
 * const { token, hash, expiresAt } = newToken(now);
 */
export function newToken(now: Date): NewToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token), expiresAt: new Date(now.getTime() + TOKEN_TTL_MS) };
}

/**
 * Creates and stores a new token for a member (sign-in stores its token in its own statement; see signIn.ts).
 *
 * @param db - database or transaction handle
 * @param memberId - the member signing in
 * @param now - the current instant
 * @returns the token to give to the client (never stored)
 * @example
 * const auth = await issueToken(tx, member.id, now);
 */
export async function issueToken(db: Db, memberId: number, now: Date): Promise<string> {
  const { token, hash, expiresAt } = newToken(now);
  await db.insert(tokens).values({ hash, memberId, createdAt: now, expiresAt });
  return token;
}

interface TokenLookup {
  tokenHash: string;
  now: Date;
}

/**
 * Finds the members of tokens that are known, unexpired and not revoked, with each member's meInfo columns, in one
 * statement (the token rows, their members, the recommenders, ledger accounts and freezes).
 *
 * @param db - database handle
 * @param lookups - token hashes, each with the instant it is checked at
 * @returns one auth context (or undefined: not valid) per lookup, in order
 * @example
 * const [auth] = await resolveTokenHashes(db, [{ tokenHash: hashToken(token), now: new Date() }]);
 */
export async function resolveTokenHashes(db: Db, lookups: readonly TokenLookup[]): Promise<(AuthContext | undefined)[]> {
  const hashes = [...new Set(lookups.map((lookup) => lookup.tokenHash))];
  const [only] = hashes;
  const rows = hashes.length === 1 && only !== undefined ? await resolveOneQueryOf(db).execute({ hash: only }) : await resolveManyQueryOf(db).execute({ hashes });
  const byHash = new Map(rows.map((row) => [row.tokenHash, row]));
  return lookups.map(({ tokenHash, now }) => {
    const row = byHash.get(tokenHash);
    if (!row || row.expiresAt.getTime() <= now.getTime()) return undefined;
    return {
      memberId: row.memberId,
      tokenHash,
      bound: row.recommenderId !== null || row.isRoot,
      member: row.member,
      withdrawalsFrozen: row.frozenMemberId !== null,
    };
  });
}

/**
 * Finds the member of one token (resolveTokenHashes for one).
 *
 * @param db - database handle
 * @param token - the token from the request
 * @param now - the current instant
 * @returns the auth context, or undefined when the token is not valid
 * @example
 * const auth = await resolveToken(db, token, new Date());
 */
export async function resolveToken(db: Db, token: string, now: Date): Promise<AuthContext | undefined> {
  const [auth] = await resolveTokenHashes(db, [{ tokenHash: hashToken(token), now }]);
  return auth;
}

/** Reads the tokens of requests in batches (server/ledger/batcher.ts): one statement for all that arrived together. */
export interface TokenResolver {
  resolve(token: string, now: Date): Promise<AuthContext | undefined>;
}

/**
 * The access hook's token reads, batched: on PGlite a statement's fixed cost is most of a short read's, so the
 * requests that arrive in one turn of the event loop share one statement (ADR 0012).
 *
 * @param db - database handle
 * @param maxInFlight - reads at once (BATCHES_IN_FLIGHT of the driver)
 * @returns the resolver
 * @example
 * const auth = await createTokenResolver(db, 1).resolve(token, new Date());
 */
export function createTokenResolver(db: Db, maxInFlight: number): TokenResolver {
  const batcher = createBatcher((lookups: TokenLookup[]) => resolveTokenHashes(db, lookups), { maxBatch: 128, maxInFlight });
  return { resolve: (token, now) => batcher.submit({ tokenHash: hashToken(token), now }) };
}

/** The token rows, their members, the recommenders, ledger accounts and freezes, for the tokens `where` picks. */
const resolveSelect = (db: Db, where: SQL) =>
  db
    .select({
      tokenHash: tokens.hash,
      expiresAt: tokens.expiresAt,
      memberId: tokens.memberId,
      recommenderId: members.recommenderId,
      isRoot: members.isRoot,
      member: memberRecordColumns,
      frozenMemberId: memberFreezes.memberId,
    })
    .from(tokens)
    .innerJoin(members, eq(members.id, tokens.memberId))
    .leftJoin(recommender, eq(recommender.id, members.recommenderId))
    .leftJoin(creditAccount, creditAccountJoin)
    .leftJoin(wposAccount, wposAccountJoin)
    .leftJoin(memberFreezes, eq(memberFreezes.memberId, members.id))
    .where(and(where, isNull(tokens.revokedAt)));

/**
 * Every authenticated request runs one of these statements, so each is built once per database handle. A batch of
 * several tokens reads them with `= ANY`; a lone token, the common case when requests do not crowd, has a statement
 * of its own: PostgreSQL's generic plan for `= ANY($1)` assumes about ten hashes, costs more than a custom plan and so
 * is never kept, and planning the statement anew took 1-1.5 ms of a meInfo's 1.9 ms at 1,000,000 members
 * (bench/README, "A million members"), where the kept plan of `= $1` runs in 0.2 ms.
 */
const resolveManyQueryOf = preparedPerDb((db) =>
  resolveSelect(db, sql`${tokens.hash} = ANY(${sql.placeholder('hashes')}::text[])`).prepare('resolve_tokens'),
);
const resolveOneQueryOf = preparedPerDb((db) => resolveSelect(db, sql`${tokens.hash} = ${sql.placeholder('hash')}`).prepare('resolve_token'));

/**
 * Revokes a token (logout). Revoking twice is harmless.
 *
 * @param db - database handle
 * @param tokenHash - hash of the token to revoke
 * @param now - the current instant
 * @returns when done
 * @example
 * await revokeToken(db, auth.tokenHash, new Date());
 */
export async function revokeToken(db: Db, tokenHash: string, now: Date): Promise<void> {
  await db.update(tokens).set({ revokedAt: now }).where(and(eq(tokens.hash, tokenHash), isNull(tokens.revokedAt)));
}
