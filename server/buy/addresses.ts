/**
 * Shipping addresses (docs/API.md "Buy flow and shipping addresses"). Each change runs in a transaction that first locks
 * the member's row, so two requests of one member never race on the count or the default; the database's own rules
 * (migration 0013: one default, at most 20) back the code up.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DeliveryAddress } from '../../api-schema/buy';
import type { Db } from '../db/client';
import { deliveryAddresses } from '../db/schema';
import { AmountOutOfLimitsError, NotFoundError } from '../errors';

/** docs/API.md: a member holds at most 20 addresses. */
export const MAX_ADDRESSES = 20;

export type AddressFields = Omit<DeliveryAddress, 'deliveryId'>;

type AddressRow = typeof deliveryAddresses.$inferSelect;

const toAddress = (row: AddressRow): DeliveryAddress => ({
  deliveryId: row.id.toString(),
  name: row.name,
  phone: row.phone,
  region: row.region,
  detail: row.detail,
  isDefault: row.isDefault,
});

/** The largest key a bigint column holds: a 19-digit id above it would fail the database's cast (5000, not 4004). */
const MAX_ROW_ID = 2n ** 63n - 1n;

/**
 * A deliveryId as the database's key, or null for one that cannot be any row's (the contract allows letters).
 *
 * @example deliveryRowId('12') // 12n
 */
export function deliveryRowId(deliveryId: string): bigint | null {
  if (!/^[1-9][0-9]{0,18}$/.test(deliveryId)) return null;
  const id = BigInt(deliveryId);
  return id <= MAX_ROW_ID ? id : null;
}

async function lockMember(tx: Db, memberId: number): Promise<void> {
  await tx.execute(sql`SELECT 1 FROM members WHERE id = ${memberId} FOR UPDATE`);
}

async function ownRow(tx: Db, memberId: number, deliveryId: string): Promise<AddressRow> {
  const id = deliveryRowId(deliveryId);
  const [row] = id === null ? [] : await tx.select().from(deliveryAddresses).where(and(eq(deliveryAddresses.id, id), eq(deliveryAddresses.memberId, memberId)));
  if (!row) throw new NotFoundError();
  return row;
}

async function clearDefault(tx: Db, memberId: number): Promise<void> {
  await tx.update(deliveryAddresses).set({ isDefault: false }).where(and(eq(deliveryAddresses.memberId, memberId), eq(deliveryAddresses.isDefault, true)));
}

/**
 * The member's addresses, the default first, then the newest first.
 *
 * @example const { list } = await listAddresses(db, memberId);
 */
export async function listAddresses(db: Db, memberId: number): Promise<{ list: DeliveryAddress[] }> {
  const rows = await db
    .select()
    .from(deliveryAddresses)
    .where(eq(deliveryAddresses.memberId, memberId))
    .orderBy(desc(deliveryAddresses.isDefault), desc(deliveryAddresses.id));
  return { list: rows.map(toAddress) };
}

/**
 * Adds an address: the member's first is the default whatever `isDefault` says; `isDefault: true` takes the default
 * over. A 21st address is 3002.
 *
 * @example await addAddress(db, memberId, { name, phone, region, detail, isDefault: false });
 */
export async function addAddress(db: Db, memberId: number, fields: AddressFields): Promise<DeliveryAddress> {
  return db.transaction(async (tx) => {
    await lockMember(tx, memberId);
    const [counted] = await tx.select({ count: sql<number>`count(*)::int` }).from(deliveryAddresses).where(eq(deliveryAddresses.memberId, memberId));
    const count = counted?.count ?? 0;
    if (count >= MAX_ADDRESSES) throw new AmountOutOfLimitsError();
    const isDefault = count === 0 || fields.isDefault;
    if (isDefault) await clearDefault(tx, memberId);
    const [row] = await tx.insert(deliveryAddresses).values({ ...fields, memberId, isDefault }).returning();
    if (!row) throw new Error('insert returned no address');
    return toAddress(row);
  });
}

/**
 * Edits an own address (another member's is 4004): `isDefault: true` takes the default over, `false` on the
 * default leaves it the default.
 *
 * @example await editAddress(db, memberId, { deliveryId: '12', name, phone, region, detail, isDefault: true });
 */
export async function editAddress(db: Db, memberId: number, address: DeliveryAddress): Promise<DeliveryAddress> {
  return db.transaction(async (tx) => {
    await lockMember(tx, memberId);
    const current = await ownRow(tx, memberId, address.deliveryId);
    const isDefault = current.isDefault || address.isDefault;
    if (isDefault && !current.isDefault) await clearDefault(tx, memberId);
    const { deliveryId: _id, ...fields } = address;
    const [row] = await tx.update(deliveryAddresses).set({ ...fields, isDefault }).where(eq(deliveryAddresses.id, current.id)).returning();
    if (!row) throw new Error('update returned no address');
    return toAddress(row);
  });
}

/**
 * Deletes an own address (another member's is 4004); when it was the default, the most recently added remaining
 * address becomes the default.
 *
 * @example await deleteAddress(db, memberId, '12');
 */
export async function deleteAddress(db: Db, memberId: number, deliveryId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockMember(tx, memberId);
    const current = await ownRow(tx, memberId, deliveryId);
    await tx.delete(deliveryAddresses).where(eq(deliveryAddresses.id, current.id));
    if (!current.isDefault) return;
    const [newest] = await tx
      .select({ id: deliveryAddresses.id })
      .from(deliveryAddresses)
      .where(eq(deliveryAddresses.memberId, memberId))
      .orderBy(desc(deliveryAddresses.id))
      .limit(1);
    if (newest) await tx.update(deliveryAddresses).set({ isDefault: true }).where(eq(deliveryAddresses.id, newest.id));
  });
}
