/**
 * Seeds a fresh database: app config, notices, the about page, the root inviter, the ledger's system accounts, bots,
 * the share pools and (for npm start) a small downline under the inviter and the demo's funded pools and exchange;
 * with SEED=minimal only the app config, the system accounts and the deployment's own root inviter. Every insert is ON CONFLICT
 * DO NOTHING, so running it again (each start does) changes nothing and never overwrites edited rows; a lock
 * keeps two instances starting together from interleaving.
 */
import { lockTransaction, rowsOf, type Db } from '../db/client';
import { about, appConfig, bots, goods, ledgerCounters, members, notices, sharePools } from '../db/schema';
import { eq, sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import { z } from 'zod';
import { ensureSystemAccounts, FUNDED_ACCOUNTS, systemAccountId, type FundedAccount } from '../ledger/accounts';
import { fundingRequest } from '../ledger/funding';
import { postRequests, type LedgerRequest } from '../ledger/engine';
import { toMinor } from '../../api-schema/amount';
import { normaliseInviteCode, randomInviteCode } from '../members/inviteCode';
import { bindRecommender } from '../members/tree';
import { stockKey } from '../buy/goods';
import { SEED_ABOUT, SEED_APP_CONFIG, SEED_BOTS, SEED_GOODS, SEED_INVITER, SEED_NOTICES, SEED_SHARE_POOLS, SEED_TEAM } from './content';

const SEED_LOCK = 4_361_000_003;

export interface SeedOptions {
  /**
   * SEED=minimal: only the app config, the system accounts and this root inviter (no notices, about page, bots,
   * share pools or goods: a real deployment's operators write its content). Its invite code: ROOT_INVITE_CODE, or a
   * random one at the first seed.
   */
  minimal?: { rootInviter: string; inviteCode?: string | undefined } | undefined;
  /**
   * Also the seeded inviter's small downline (SEED_TEAM), for the team screens of a fresh start. Off by default, so
   * tests that count the inviter's team start from an empty one; npm start turns it on.
   */
  demoTeam?: boolean;
}

/**
 * Inserts the seed rows that are missing.
 *
 * @param db - database handle (migrated)
 * @param options - whether to add the demo downline
 * @returns when done
 * @example
 * await database.migrate();
 * await seed(database.db, { demoTeam: true });
 */
export async function seed(db: Db, options: SeedOptions = {}): Promise<void> {
  const { minimal } = options;
  if (minimal) {
    await db.transaction(async (tx) => {
      await lockTransaction(tx, SEED_LOCK);
      await tx.insert(appConfig).values({ id: 1, value: SEED_APP_CONFIG }).onConflictDoNothing();
      // One root: a second start with another address adds nobody (the first root stays the tree's top).
      if (!(await rootInviter(tx))) {
        const address = getAddress(minimal.rootInviter);
        await tx.insert(members).values({ address, inviteCode: normaliseInviteCode(minimal.inviteCode ?? randomInviteCode()), isRoot: true, createdAt: new Date() }).onConflictDoNothing();
      }
      await ensureSystemAccounts(tx);
    });
    return;
  }
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
    await tx
      .insert(bots)
      .values(SEED_BOTS.map((bot) => ({ ...bot, profitRate: parseSignedRate(bot.profitRate) })))
      .onConflictDoNothing();
    await tx
      .insert(sharePools)
      .values(SEED_SHARE_POOLS.map((pool) => ({ ...pool, totalAmount: toMinor(pool.totalAmount), minHolding: toMinor(pool.minHolding) })))
      .onConflictDoNothing();
    await tx
      .insert(goods)
      .values(SEED_GOODS.map(({ stock: _stock, price, ...item }, position) => ({ ...item, price: toMinor(price), position })))
      .onConflictDoNothing();
    // The stock is a ledger counter (settlement draws from it); a reseed leaves what was sold sold.
    await tx
      .insert(ledgerCounters)
      .values(SEED_GOODS.map((item) => ({ key: stockKey(item.id), available: BigInt(item.stock) })))
      .onConflictDoNothing();
    if (options.demoTeam) {
      await seedTeam(tx);
      await fundDemoAccounts(tx);
    }
  });
}

/** What the development chain's demo funds: the share pools pay (2,600 WPOS a day seeded) and WPOS sells back to CREDIT. */
export const SEED_DEMO_FUNDS = { sharePools: '1000000', exchangeCredit: '100000' } as const;

/**
 * The funded accounts of a development database, once (a reseed funds nothing more): on a real chain they start
 * empty and finance funds them under the operators' policy (docs/API.md, "Operators: the policy").
 *
 * @param tx - the seed's transaction (or a database handle)
 * @returns when funded
 * @example
 * await fundDemoAccounts(db); // the e2e servers' demo money
 */
export async function fundDemoAccounts(tx: Db): Promise<void> {
  const requests: LedgerRequest[] = [];
  for (const [name, amount] of Object.entries(SEED_DEMO_FUNDS) as [FundedAccount, string][]) {
    const account = systemAccountId(FUNDED_ACCOUNTS[name].asset, FUNDED_ACCOUNTS[name].kind);
    // Funded once, ever: the ledger says whether it was (under the seed's lock), not an outcome that expires.
    const funded = await tx.execute(sql`SELECT 1 FROM ledger_transfers WHERE credit_account_id = ${account}::int AND type = 'funding' LIMIT 1`);
    if (rowsOf(funded, z.looseObject({})).length > 0) continue;
    requests.push(fundingRequest(name, toMinor(amount), new Date()));
  }
  if (requests.length > 0) await postRequests(tx, requests);
}

/** A signed decimal rate ("-2.4") in millionths. */
function parseSignedRate(rate: string): bigint {
  return rate.startsWith('-') ? -toMinor(rate.slice(1)) : toMinor(rate);
}

/**
 * Adds the members of SEED_TEAM that do not exist yet and binds each to its recommender through bindRecommender,
 * so the team counts and the tree rows are kept as for any member. A member that exists already is left alone.
 */
async function seedTeam(tx: Db): Promise<void> {
  for (const entry of SEED_TEAM) {
    const [created] = await tx
      .insert(members)
      .values({ address: entry.address, inviteCode: entry.inviteCode, createdAt: entry.createdAt })
      .onConflictDoNothing()
      .returning({ id: members.id });
    if (!created) continue;
    const outcome = await bindRecommender(tx, created.id, entry.recommenderCode);
    if (outcome !== 'bound') throw new Error(`seed: ${entry.inviteCode} could not bind to ${entry.recommenderCode}: ${outcome}`);
  }
}

/**
 * The tree's root (the seeded inviter), for the start's log line.
 *
 * @param db - database handle (seeded)
 * @returns its address and invite code, or undefined before a seed
 * @example
 * const root = await rootInviter(db);
 */
export async function rootInviter(db: Db): Promise<{ address: string; inviteCode: string } | undefined> {
  const [root] = await db.select({ address: members.address, inviteCode: members.inviteCode }).from(members).where(eq(members.isRoot, true)).limit(1);
  return root;
}
