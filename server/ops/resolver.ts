/**
 * The OperatorResolver (server/ops/actor.ts) of the access hook: a credential on an operator call is an operator
 * session token (`mdo_…`, from the desk's cookie) or an API key (`mdk_<id>_…`, as bearer), looked up by sha256 in
 * their own tables, never in members' tokens, so a member's token opens no operator call (1002). Sessions act with
 * their operator's current roles; keys with their roles as far as their creator still holds them. A removed
 * operator's credentials are refused even before their revocation is seen. Lookups that arrive together share one
 * statement (ADR 0012), as members' tokens do; a key's last_used_at is written at most once a minute.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { OperatorRole } from '../../api-schema/endpoint';
import { hashToken } from '../auth/tokens';
import { queryRows, type Db } from '../db/client';
import { createBatcher } from '../ledger/batcher';
import { holdsRole, type OperatorActor, type OperatorResolver } from './actor';
import { apiKeyIdOf } from './apiKeys';
import { normalizedRoles } from './operators';
import { SESSION_PREFIX } from './signIn';

/** A key's last use is written when the stored one is older than this. */
export const LAST_USED_GRANULARITY_MS = 60_000;

interface Lookup {
  hash: string;
  /** The key's id when the credential has a key's shape. */
  keyId: string | undefined;
  now: Date;
}

const credentialRow = z.object({
  hash: z.string(),
  kind: z.enum(['session', 'apiKey']),
  credentialId: z.string(),
  address: z.string(),
  operatorRoles: z.array(z.string()),
  keyRoles: z.array(z.string()).nullable(),
  expiresAt: z.coerce.date().nullable(),
  lastUsedAt: z.coerce.date().nullable(),
});
type CredentialRow = z.infer<typeof credentialRow>;

async function readCredentials(db: Db, hashes: string[]): Promise<CredentialRow[]> {
  const list = JSON.stringify(hashes);
  return queryRows(
    db,
    sql`SELECT s.hash, 'session' AS kind, s.hash AS "credentialId", s.address, o.roles AS "operatorRoles", NULL::text[] AS "keyRoles",
               s.expires_at AS "expiresAt", NULL::timestamptz AS "lastUsedAt"
        FROM operator_sessions s JOIN operators o ON o.address = s.address AND o.removed_at IS NULL
        WHERE s.hash IN (SELECT jsonb_array_elements_text(${list}::jsonb)) AND s.revoked_at IS NULL
        UNION ALL
        SELECT k.hash, 'apiKey', k.id, k.created_by, o.roles, k.roles, NULL::timestamptz, k.last_used_at
        FROM operator_api_keys k JOIN operators o ON o.address = k.created_by AND o.removed_at IS NULL
        WHERE k.hash IN (SELECT jsonb_array_elements_text(${list}::jsonb)) AND k.revoked_at IS NULL`,
    credentialRow,
  );
}

/** A key's roles that its creator still holds (an admin creator holds them all). */
function keyRolesNow(keyRoles: readonly string[], operatorRoles: readonly string[]): OperatorRole[] {
  const creator = { roles: operatorRoles as OperatorRole[] };
  return normalizedRoles((keyRoles as OperatorRole[]).filter((role) => holdsRole(creator, role)));
}

function actorOf(row: CredentialRow | undefined, lookup: Lookup): OperatorActor | undefined {
  if (!row) return undefined;
  if (row.kind === 'session') {
    if (!row.expiresAt || row.expiresAt.getTime() <= lookup.now.getTime()) return undefined;
    return { address: row.address, roles: normalizedRoles(row.operatorRoles as OperatorRole[]), via: 'session', credentialId: row.credentialId };
  }
  if (row.credentialId !== lookup.keyId) return undefined;
  const roles = keyRolesNow(row.keyRoles ?? [], row.operatorRoles);
  if (roles.length === 0) return undefined;
  return { address: row.address, roles, via: 'apiKey', credentialId: row.credentialId };
}

async function touchKeys(db: Db, rows: readonly CredentialRow[], now: Date): Promise<void> {
  const stale = rows.filter((row) => row.kind === 'apiKey' && (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS));
  if (stale.length === 0) return;
  const at = now.toISOString();
  await db.execute(
    sql`UPDATE operator_api_keys SET last_used_at = ${at}::timestamptz
        WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(stale.map((row) => row.credentialId))}::jsonb))
          AND (last_used_at IS NULL OR last_used_at <= ${at}::timestamptz - interval '1 minute')`,
  );
}

/**
 * Resolves lookups in one statement.
 *
 * @param db - database handle
 * @param lookups - credential hashes, each with its key id (if a key) and the instant it is checked at
 * @returns one actor (or undefined: not valid) per lookup, in order
 * @example
 * const [actor] = await resolveOperatorCredentials(db, [{ hash, keyId: undefined, now }]);
 */
export async function resolveOperatorCredentials(db: Db, lookups: readonly Lookup[]): Promise<(OperatorActor | undefined)[]> {
  const rows = await readCredentials(db, [...new Set(lookups.map((lookup) => lookup.hash))]);
  const byHash = new Map(rows.map((row) => [row.hash, row]));
  const actors = lookups.map((lookup) => actorOf(byHash.get(lookup.hash), lookup));
  const used = rows.filter((row) => lookups.some((lookup, index) => lookup.hash === row.hash && actors[index] !== undefined));
  const newest = lookups.reduce<Date | undefined>((latest, lookup) => (!latest || lookup.now > latest ? lookup.now : latest), undefined);
  if (newest) await touchKeys(db, used, newest);
  return actors;
}

/** Whether a bearer has the shape of an operator credential (else it cannot be one, and no statement is run). */
function lookupOf(bearer: string, now: Date): Lookup | undefined {
  if (bearer.startsWith(SESSION_PREFIX)) return { hash: hashToken(bearer), keyId: undefined, now };
  const keyId = apiKeyIdOf(bearer);
  return keyId === undefined ? undefined : { hash: hashToken(bearer), keyId, now };
}

/**
 * The access hook's operator credential reads, batched (as createTokenResolver's).
 *
 * @param db - database handle
 * @param maxInFlight - reads at once (BATCHES_IN_FLIGHT of the driver)
 * @returns the resolver
 * @example
 * const actor = await createOperatorResolver(db, 1).resolve(bearer, new Date());
 */
export function createOperatorResolver(db: Db, maxInFlight: number): OperatorResolver {
  const batcher = createBatcher((lookups: Lookup[]) => resolveOperatorCredentials(db, lookups), { maxBatch: 64, maxInFlight });
  return {
    resolve: async (bearer, now) => {
      const lookup = lookupOf(bearer, now);
      return lookup ? batcher.submit(lookup) : undefined;
    },
  };
}
