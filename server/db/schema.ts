/**
 * The one database schema (Drizzle), shared by PGlite and node-postgres. drizzle-kit turns changes here into the
 * versioned SQL files in server/db/migrations (`npm run db:generate`); commit both together (STYLE.md, "Commits").
 *
 * Money is integer minor units with 6 decimals (API.md, "Envelope"), held in bigint columns read as JS bigint so no
 * amount ever passes through a float. Balances carry CHECK constraints: a bug may fail a request, never make a
 * balance negative.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const members = pgTable(
  'members',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** EIP-55 checksummed, as viem's getAddress returns it; the sign-in flow normalises before every lookup. */
    address: text('address').notNull().unique(),
    /** 8 characters [A-Z0-9] for generated codes; stored upper case, matched case-insensitively by upper-casing. */
    inviteCode: text('invite_code').notNull().unique(),
    recommenderId: integer('recommender_id').references((): AnyPgColumn => members.id),
    /** The seeded inviter: bound without a recommender, the root of the tree. */
    isRoot: boolean('is_root').notNull().default(false),
    level: integer('level').notNull().default(0),
    creditBalance: bigint('credit_balance', { mode: 'bigint' }).notNull().default(sql`0`),
    wposBalance: bigint('wpos_balance', { mode: 'bigint' }).notNull().default(sql`0`),
    /**
     * The whole downline and the members bound directly to this one, kept by bindRecommender for every ancestor
     * in the bind's transaction (binding is the only write to the tree), so meInfo reads them instead of walking
     * the tree. Migration 0001 computed them for the members that existed before.
     */
    teamSize: integer('team_size').notNull().default(0),
    directCount: integer('direct_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('members_recommender_id_idx').on(t.recommenderId),
    check('members_credit_balance_nonnegative', sql`${t.creditBalance} >= 0`),
    check('members_wpos_balance_nonnegative', sql`${t.wposBalance} >= 0`),
    check('members_level_nonnegative', sql`${t.level} >= 0`),
    check('members_team_counts_consistent', sql`${t.directCount} >= 0 AND ${t.teamSize} >= ${t.directCount}`),
    check('members_not_own_recommender', sql`${t.recommenderId} IS NULL OR ${t.recommenderId} <> ${t.id}`),
  ],
);

export const nonces = pgTable(
  'nonces',
  {
    value: text('value').primaryKey(),
    /** The EIP-55 address the nonce was issued for; a message for another address may not use it. */
    address: text('address').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('nonces_expires_at_idx').on(t.expiresAt)],
);

export const tokens = pgTable(
  'tokens',
  {
    /** Hex sha256 of the token; the token itself is never stored, so a database leak yields no usable token. */
    hash: text('hash').primaryKey(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('tokens_member_id_idx').on(t.memberId)],
);

export const notices = pgTable(
  'notices',
  {
    /** Shared by the translations of one notice, so noticeDetail can switch language. */
    id: text('id').notNull(),
    lang: text('lang').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    /** HTML; the client sanitises it before rendering (API.md, "Public data"). */
    content: text('content').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.id, t.lang] }), index('notices_lang_published_at_idx').on(t.lang, t.publishedAt)],
);

export const about = pgTable('about', {
  lang: text('lang').primaryKey(),
  title: text('title').notNull(),
  content: text('content').notNull(),
});

export const appConfig = pgTable(
  'app_config',
  {
    /** Always 1: a single row, so a read never has to choose between versions. */
    id: integer('id').primaryKey().default(1),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [check('app_config_single_row', sql`${t.id} = 1`)],
);
