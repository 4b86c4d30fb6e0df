/** Whole-database snapshots, to prove a refused request wrote nothing. */
import { asc } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';
import { about, appConfig, members, nonces, notices, tokens, deliveryAddresses } from '../../../server/db/schema';

export async function snapshotDb(db: Db): Promise<string> {
  const tables = {
    members: await db.select().from(members).orderBy(asc(members.id)),
    nonces: await db.select().from(nonces).orderBy(asc(nonces.value)),
    tokens: await db.select().from(tokens).orderBy(asc(tokens.hash)),
    notices: await db.select().from(notices).orderBy(asc(notices.id), asc(notices.lang)),
    about: await db.select().from(about).orderBy(asc(about.lang)),
    appConfig: await db.select().from(appConfig),
    deliveryAddresses: await db.select().from(deliveryAddresses).orderBy(asc(deliveryAddresses.id)),
  };
  return JSON.stringify(tables, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}
