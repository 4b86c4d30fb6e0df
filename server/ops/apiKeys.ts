/**
 * Operators' API keys for scripts (docs/API.md, "Operators"): `mdk_<id>_<secret>`, the id 8 random bytes in hex, the
 * secret 32 random bytes in base64url. The key is in the creating answer only; the server keeps its sha256. A key's
 * roles are within its creator's when made, and it acts with them only as far as the creator still holds them
 * (server/ops/resolver.ts).
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { OperatorRole } from '../../api-schema/endpoint';
import { hashToken } from '../auth/tokens';
import type { Db } from '../db/client';
import { operatorApiKeys } from '../db/schema';
import { NotFoundError } from '../errors';
import { recordAudit, type AuditEntry } from './audit';
import { normalizedRoles, type AuditContext } from './operators';

export const API_KEY_PREFIX = 'mdk_';
const API_KEY_PATTERN = /^mdk_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/;

export interface ApiKeyRow {
  id: string;
  label: string;
  roles: OperatorRole[];
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const columns = {
  id: operatorApiKeys.id,
  label: operatorApiKeys.label,
  roles: operatorApiKeys.roles,
  createdBy: operatorApiKeys.createdBy,
  createdAt: operatorApiKeys.createdAt,
  lastUsedAt: operatorApiKeys.lastUsedAt,
  revokedAt: operatorApiKeys.revokedAt,
};

function rowOf(row: Omit<ApiKeyRow, 'roles'> & { roles: string[] }): ApiKeyRow {
  return { ...row, roles: row.roles as OperatorRole[] };
}

/**
 * The id a presented key names, when it has the shape of a key.
 *
 * @example
 * apiKeyIdOf('mdk_0123456789abcdef_...'); // '0123456789abcdef'
 */
export function apiKeyIdOf(key: string): string | undefined {
  return API_KEY_PATTERN.exec(key)?.[1];
}

/**
 * Creates a key for an operator, with its audit row (the secret never reaches the log).
 *
 * @param db - database handle
 * @param key - its label, roles and creator (EIP-55)
 * @param audit - who acts, when, from where
 * @returns the key (shown once) and its row
 * @example
 * const { key } = await createApiKey(db, { label: 'nightly reconcile', roles: ['finance'], createdBy }, context);
 */
export async function createApiKey(
  db: Db,
  key: { label: string; roles: readonly OperatorRole[]; createdBy: string },
  audit: AuditContext,
): Promise<{ key: string; apiKey: ApiKeyRow }> {
  const id = randomBytes(8).toString('hex');
  const secret = `${API_KEY_PREFIX}${id}_${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(operatorApiKeys)
      .values({ id, label: key.label, roles: normalizedRoles(key.roles), hash: hashToken(secret), createdBy: key.createdBy, createdAt: audit.at })
      .returning(columns);
    if (!row) throw new Error('API key not written');
    const apiKey = rowOf(row);
    await recordAudit(tx, { ...audit, action: 'opsKeyCreate', target: id, before: null, after: apiKey });
    return { key: secret, apiKey };
  });
}

/**
 * API keys, newest first: an operator's own, or everyone's.
 *
 * @param db - database handle
 * @param createdBy - the creator (EIP-55), or undefined for all
 * @returns the keys (never their secret or hash)
 * @example
 * const keys = await listApiKeys(db, actor.address);
 */
export async function listApiKeys(db: Db, createdBy: string | undefined): Promise<ApiKeyRow[]> {
  const where: SQL | undefined = createdBy === undefined ? undefined : eq(operatorApiKeys.createdBy, createdBy);
  const rows = await db.select(columns).from(operatorApiKeys).where(where).orderBy(desc(operatorApiKeys.createdAt), desc(operatorApiKeys.id));
  return rows.map(rowOf);
}

/**
 * Revokes a key: its creator's own (createdBy given) or any (an admin). Revoking again answers the revoked key.
 *
 * @param db - database handle
 * @param id - the key's id
 * @param createdBy - only a key of this creator, or undefined for any
 * @param audit - who acts, when, from where
 * @returns the key as revoked
 * @throws NotFoundError when there is no such key (of that creator)
 * @example
 * await revokeApiKey(db, id, actor.address, context);
 */
export async function revokeApiKey(db: Db, id: string, createdBy: string | undefined, audit: AuditContext): Promise<ApiKeyRow> {
  return db.transaction(async (tx) => {
    const owned = createdBy === undefined ? eq(operatorApiKeys.id, id) : and(eq(operatorApiKeys.id, id), eq(operatorApiKeys.createdBy, createdBy));
    const [before] = await tx.select(columns).from(operatorApiKeys).where(owned).for('update');
    if (!before) throw new NotFoundError();
    if (before.revokedAt !== null) return rowOf(before);
    const [row] = await tx.update(operatorApiKeys).set({ revokedAt: audit.at }).where(and(eq(operatorApiKeys.id, id), isNull(operatorApiKeys.revokedAt))).returning(columns);
    if (!row) throw new Error('API key not revoked');
    const entry: AuditEntry = { ...audit, action: 'opsKeyRevoke', target: id, before: rowOf(before), after: rowOf(row) };
    await recordAudit(tx, entry);
    return rowOf(row);
  });
}
