/**
 * Seeds a fresh database: app config, notices, the about page, the root inviter and the ledger's system accounts. Every insert is ON CONFLICT
 * DO NOTHING, so running it again (each start does) changes nothing and never overwrites edited rows; a lock
 * keeps two instances starting together from interleaving.
 */
import type { Db } from '../db/client';
import { lockTransaction } from '../db/client';
import { about, appConfig, members, notices } from '../db/schema';
import { ensureSystemAccounts } from '../ledger/accounts';
import { SEED_ABOUT, SEED_APP_CONFIG, SEED_INVITER, SEED_NOTICES } from './content';

const SEED_LOCK = 4_361_000_003;

/**
 * Inserts the seed rows that are missing.
 *
 * @param db - database handle (migrated)
 * @returns when done
 * @example
 * await database.migrate();
 * await seed(database.db);
 */
export async function seed(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await lockTransaction(tx, SEED_LOCK);
    await tx.insert(appConfig).values({ id: 1, value: SEED_APP_CONFIG }).onConflictDoNothing();
    await tx
      .insert(notices)
      .values(
        SEED_NOTICES.flatMap((notice) =>
          (['zh', 'en'] as const).map((lang) => ({ id: notice.id, lang, publishedAt: notice.publishedAt, ...notice[lang] })),
        ),
      )
      .onConflictDoNothing();
    await tx
      .insert(about)
      .values((['zh', 'en'] as const).map((lang) => ({ lang, ...SEED_ABOUT[lang] })))
      .onConflictDoNothing();
    await tx
      .insert(members)
      .values({ address: SEED_INVITER.address, inviteCode: SEED_INVITER.inviteCode, isRoot: true, createdAt: SEED_INVITER.createdAt })
      .onConflictDoNothing();
    await ensureSystemAccounts(tx);
  });
}
