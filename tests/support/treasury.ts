/**
 * The test treasury: a real operator with the finance role that funds members (grants) and makes the finance calls
 * of the server tests, the e2e journeys and the bench, with an operator API key whose string is fixed here, so a
 * call needs only treasuryHeaders(). In-process servers get it written into their database (addTestTreasury); a
 * server in a child process makes the treasury's wallet its first admin (OPS_FIRST_ADMIN) and the treasury signs in
 * over HTTP and makes its key there (treasuryHeadersOverHttp).
 */
import { eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { OperatorRole } from '../../api-schema/endpoint';
import { hashToken } from '../../server/auth/tokens';
import type { Db } from '../../server/db/client';
import { operatorApiKeys, operators } from '../../server/db/schema';
import { signInOperatorOverHttp } from '../server/support/httpSignIn';

/** The treasury's wallet: no anvil account, so no test's member or chain role is it. */
export const TEST_TREASURY_PRIVATE_KEY: Hex = '0x7e57000000000000000000000000000000000000000000000000000000007e57';
export const TEST_TREASURY_ADDRESS = privateKeyToAccount(TEST_TREASURY_PRIVATE_KEY).address;

/** Its key's id and the key itself, in the shape server/ops/apiKeys.ts makes (`mdk_<16 hex>_<43 base64url>`). */
export const TEST_TREASURY_KEY_ID = '7e57000000007e57';
export const TEST_TREASURY_KEY = `mdk_${TEST_TREASURY_KEY_ID}_test-treasury-key-known-to-every-test-run00`;
export const TEST_TREASURY_ROLES: readonly OperatorRole[] = ['finance'];

/** The credential of a call the test treasury makes. */
export function treasuryHeaders(): Record<string, string> {
  return { authorization: `Bearer ${TEST_TREASURY_KEY}` };
}

/**
 * Writes the treasury and its key as the operators' CLI and opsKeyCreate would, but without their audit rows, so a
 * test that reads the audit log sees only its own acts, and with the fixed key string (opsKeyCreate draws a random
 * one); the resolver reads these rows as any other operator's.
 *
 * @param db - a migrated database
 * @param at - when they were added (a test clock's past, so a test's own operators come after)
 * @example await addTestTreasury(db, new Date('2026-11-21T12:00:00Z'));
 */
export async function addTestTreasury(db: Db, at: Date = new Date()): Promise<void> {
  const roles = [...TEST_TREASURY_ROLES];
  // Nothing when they are there already: a bench or e2e database may be started on again.
  await db.insert(operators).values({ address: TEST_TREASURY_ADDRESS, roles, addedAt: at, addedBy: null }).onConflictDoNothing();
  await db
    .insert(operatorApiKeys)
    .values({ id: TEST_TREASURY_KEY_ID, label: 'test treasury', roles, hash: hashToken(TEST_TREASURY_KEY), createdBy: TEST_TREASURY_ADDRESS, createdAt: at })
    .onConflictDoNothing();
}

/**
 * Takes the treasury and its key out again, for a test that starts from no operator at all (a deployment's first start).
 *
 * @param db - a database addTestTreasury wrote to
 * @example beforeEach(() => removeTestTreasury(ctx.db));
 */
export async function removeTestTreasury(db: Db): Promise<void> {
  await db.delete(operatorApiKeys).where(eq(operatorApiKeys.createdBy, TEST_TREASURY_ADDRESS));
  await db.delete(operators).where(eq(operators.address, TEST_TREASURY_ADDRESS));
}

/**
 * For a server in a child process started with OPS_FIRST_ADMIN=TEST_TREASURY_ADDRESS: the treasury signs in over
 * HTTP (the desk's SIWE) and makes a finance key through opsKeyCreate, as an operator's script would. The key is
 * random (the server draws it), and it outlives restarts of the server on the same database.
 *
 * @param base - the server's URL
 * @returns the headers of the treasury's calls
 * @example const treasury = await treasuryHeadersOverHttp(`http://127.0.0.1:${port}`);
 */
export async function treasuryHeadersOverHttp(base: string): Promise<Record<string, string>> {
  const session = await signInOperatorOverHttp(base, privateKeyToAccount(TEST_TREASURY_PRIVATE_KEY));
  const response = await fetch(`${base}/api/admin/keys/create`, {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({ label: 'test treasury', roles: TEST_TREASURY_ROLES }),
  });
  const answer = (await response.json()) as { code: number; result?: { key: string } };
  if (answer.code !== 0 || !answer.result) throw new Error(`opsKeyCreate answered ${JSON.stringify(answer)}`);
  return { authorization: `Bearer ${answer.result.key}` };
}
