/**
 * The one database schema (Drizzle), shared by PGlite and node-postgres. drizzle-kit turns changes here into the
 * versioned SQL files in server/db/migrations (`npm run db:generate`); commit both together (CONTRIBUTING.md, "Commits").
 *
 * Money is integer minor units with 6 decimals (docs/API.md, "Envelope"), held in bigint columns read as JS bigint so no
 * amount ever passes through a float. Balances live only in the ledger (ledger_accounts, ledger_transfers,
 * ledger_entries; docs/decisions/0010-ledger.md) and carry CHECK constraints: a bug may fail a request, never make a
 * member balance negative.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const members = pgTable(
  'members',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** EIP-55 checksummed, as viem's getAddress returns it; the sign-in flow normalises before every lookup. */
    address: text('address').notNull().unique(),
    /**
     * 8 of Crockford's base32 digits for new codes ([A-Z0-9] before migration 0010); stored upper case, matched
     * case-insensitively by upper-casing, then by look-alikes (server/members/inviteCode.ts).
     */
    inviteCode: text('invite_code').notNull().unique(),
    recommenderId: integer('recommender_id').references((): AnyPgColumn => members.id),
    /** The seeded inviter: bound without a recommender, the root of the tree. */
    isRoot: boolean('is_root').notNull().default(false),
    level: integer('level').notNull().default(0),
    /**
     * Where the member sits (server/members/tree.ts, ADR 0034): its depth below the top of its tree (0 for the root
     * and for a member not bound yet), its nearest TREE_NEAR ancestors (parent first) and its ancestors at every
     * depth that is a multiple of TREE_NEAR. Any ancestor is then one or two array reads away, and a bind copies
     * its inviter's arrays instead of writing a row per ancestor.
     */
    treeDepth: integer('tree_depth').notNull().default(0),
    nearAncestors: integer('near_ancestors').array().notNull().default(sql`'{}'::int[]`),
    checkpointAncestors: integer('checkpoint_ancestors').array().notNull().default(sql`'{}'::int[]`),
    createdAt: createdAt(),
    /**
     * Every 4-character window of the lower-case hex digits (member_address_grams, created by migration 0003), for
     * team search: a keyword's windows find the few candidate members in the GIN index, whatever the size of the
     * caller's downline (docs/decisions/0009-team-tree-and-search.md).
     */
    addressGrams: text('address_grams')
      .array()
      .notNull()
      .generatedAlwaysAs(sql`member_address_grams(address)`),
  },
  (t) => [
    // A member's direct members in the order they joined: the team page's keyset.
    index('members_recommender_id_idx').on(t.recommenderId, t.id),
    // A code typed with look-alikes (O for 0, I or L for 1) finds its member through this (LOOKALIKE_* in inviteCode.ts).
    index('members_invite_code_lookalike_idx').on(sql`translate(${t.inviteCode}, 'OIL', '011')`),
    // fastupdate off: entries go straight into the index, so lookups never scan a pending list and the planner
    // picks the index on PGlite, where no autovacuum ever cleans that list or gathers statistics.
    index('members_address_grams_idx').using('gin', t.addressGrams).with({ fastupdate: false }),
    check('members_level_nonnegative', sql`${t.level} >= 0`),
    check('members_not_own_recommender', sql`${t.recommenderId} IS NULL OR ${t.recommenderId} <> ${t.id}`),
  ],
);

/**
 * The kept team counts: a member's whole downline and the members bound directly to it, a row for each member
 * with a team (none: both 0). The count fold (server/members/teamCounts.ts) adds waiting binds here in batches; a
 * narrow table of its own, so a fold that adds to the 5,000 ancestors of a deep bind writes 5,000 short rows, not
 * 5,000 member rows with their address-grams index entries. Reads add the binds still waiting (ADR 0034).
 */
export const teamCounts = pgTable(
  'team_counts',
  {
    memberId: integer('member_id')
      .primaryKey()
      .references(() => members.id, { onDelete: 'cascade' }),
    teamSize: integer('team_size').notNull(),
    directCount: integer('direct_count').notNull(),
  },
  (t) => [check('team_counts_consistent', sql`${t.directCount} >= 0 AND ${t.teamSize} >= ${t.directCount}`)],
);

/**
 * Binds waiting to be added to their ancestors' team counts (server/members/teamCounts.ts): a bind writes one row
 * here instead of updating every ancestor, and the count fold adds them in batches. Reads add the rows still waiting
 * (pendingTeamCounts), so counts stay exact (docs/decisions/0034-tree-counts-folded.md). A queue: the fold deletes
 * what it adds.
 */
export const treeJoins = pgTable('tree_joins', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** The newly bound member. */
  memberId: integer('member_id')
    .notNull()
    .references(() => members.id, { onDelete: 'cascade' }),
  /** Its recommender: gains one direct member, it and every ancestor gain `joined`. */
  inviterId: integer('inviter_id')
    .notNull()
    .references(() => members.id, { onDelete: 'cascade' }),
  /** The member and the downline it brought (1 for a new member). */
  joined: integer('joined').notNull(),
  /**
   * The member's position as bound (members.tree_depth, near_ancestors, checkpoint_ancestors), so a read that adds the
   * waiting binds checks each row alone, without a join to members.
   */
  treeDepth: integer('tree_depth').notNull(),
  nearAncestors: integer('near_ancestors').array().notNull(),
  checkpointAncestors: integer('checkpoint_ancestors').array().notNull(),
  createdAt: createdAt(),
});

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
    /**
     * HTML, sanitised by the server when an operator saves it (server/content/sanitize.ts, the member app's rule);
     * the client sanitises it again before rendering (docs/API.md, "Public data").
     */
    content: text('content').notNull(),
    /** Null while a draft or unpublished (members see only published notices); the same in every translation. */
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    /** Pinned notices come first in the members' list; the same in every translation. */
    pinned: boolean('pinned').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.id, t.lang] }), index('notices_lang_published_at_idx').on(t.lang, t.publishedAt)],
);

export const about = pgTable('about', {
  lang: text('lang').primaryKey(),
  title: text('title').notNull(),
  content: text('content').notNull(),
});

/** Trading bots shown by solbotList; profit_rate is a percentage in millionths (12.5 % is 12500000). */
export const bots = pgTable(
  'bots',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    status: text('status', { enum: ['running', 'paused', 'stopped'] }).notNull(),
    profitRate: bigint('profit_rate', { mode: 'bigint' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('bots_created_at_idx').on(t.createdAt, t.id),
    check('bots_status_known', sql`${t.status} IN ('running', 'paused', 'stopped')`),
  ],
);

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

/**
 * Ledger accounts: one per member and asset (created at the member's first movement), plus the system accounts of
 * each asset with fixed ids below 1000 (server/ledger/accounts.ts; the seed and migration 0002 create them). Only
 * member accounts and every system account but the issuance ones (`funded`: each pays only what was put in) keep a
 * running balance, never below zero; an issuance account's balance is the sum of its transfers (it may go below
 * zero, since value starts there; docs/decisions/0010-ledger.md, 0032-no-operator-alone.md).
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity({ startWith: 1000 }),
    /** CREDIT or WPOS. */
    asset: text('asset').notNull(),
    /** member, or the system account's role: issuance, fees, withdrawals_payable, exchange, pools, sales. */
    kind: text('kind').notNull(),
    memberId: integer('member_id').references(() => members.id),
    /** Member accounts only; 0 and unused on system accounts. */
    balance: bigint('balance', { mode: 'bigint' }).notNull().default(sql`0`),
    /** Member accounts only: the number of entries so far; the entry that made a balance records it. */
    version: bigint('version', { mode: 'bigint' }).notNull().default(sql`0`),
    /** A system account that pays only what was put in (all but the issuance ones): its balance is kept, never below 0. */
    funded: boolean('funded').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique('ledger_accounts_member_asset').on(t.memberId, t.asset),
    uniqueIndex('ledger_accounts_system_kind').on(t.asset, t.kind).where(sql`${t.memberId} IS NULL`),
    check('ledger_accounts_asset', sql`${t.asset} IN ('CREDIT', 'WPOS')`),
    check('ledger_accounts_owner', sql`(${t.kind} = 'member') = (${t.memberId} IS NOT NULL)`),
    check('ledger_accounts_system_ids', sql`(${t.memberId} IS NULL) = (${t.id} < 1000)`),
    // The database's own guard: whatever the code does, a member account never goes below zero.
    check('ledger_accounts_member_nonnegative', sql`${t.memberId} IS NULL OR ${t.balance} >= 0`),
    check('ledger_accounts_system_unbalanced', sql`${t.memberId} IS NOT NULL OR ${t.funded} OR (${t.balance} = 0 AND ${t.version} = 0)`),
    check('ledger_accounts_funded_nonnegative', sql`NOT ${t.funded} OR (${t.memberId} IS NULL AND ${t.balance} >= 0)`),
  ],
);

/**
 * Withdrawals: the business row of a credit withdrawal, written by the ledger engine with the pending transfer that
 * reserves its amount (its id is that pending transfer's id, ledger_pending). Its status is the pending transfer's
 * stage (held: waiting for an operator, approved, sent, posted: paid, voided: failed and refunded), never a column
 * of its own (docs/decisions/0019-withdrawals-paid-on-chain.md).
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The member paid; null for the return of a held top-up to its sender (docs/decisions/0024-held-top-ups-returned-as-withdrawals.md). */
    memberId: integer('member_id').references(() => members.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    fee: bigint('fee', { mode: 'bigint' }).notNull(),
    createdAt: createdAt(),
    /** A return's: whom it pays (the top-up's sender) and the top_ups row it returns. */
    toAddress: text('to_address'),
    topUpTxHash: text('top_up_tx_hash'),
    topUpLogPosition: integer('top_up_log_position'),
  },
  // No index on members' withdrawals: nothing reads them by member (the daily cap reads ledger_limits), and every
  // index is one more write per withdrawal (ADR 0012). Returns are few, and found by their top-up.
  (t) => [
    check('withdrawals_amounts', sql`${t.amount} > 0 AND ${t.fee} >= 0 AND ${t.fee} < ${t.amount}`),
    check(
      'withdrawals_payee',
      sql`(${t.memberId} IS NULL) = (${t.toAddress} IS NOT NULL) AND (${t.toAddress} IS NULL) = (${t.topUpTxHash} IS NULL) AND (${t.topUpTxHash} IS NULL) = (${t.topUpLogPosition} IS NULL)`,
    ),
    index('withdrawals_top_up_idx').on(t.topUpTxHash, t.topUpLogPosition).where(sql`${t.topUpTxHash} IS NOT NULL`),
  ],
);

/**
 * Two-phase transfers (TigerBeetle's pending, post, void): the legs a request reserved and the limits it holds,
 * kept so that a void gives back exactly those, and the stage a flow moves it through. Written only by the ledger
 * engine: `held` or another first stage at the reservation, then whatever stages the flow names, ending in `posted`
 * or `voided`.
 */
export const ledgerPending = pgTable(
  'ledger_pending',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedByDefaultAsIdentity(),
    stage: text('stage').notNull(),
    /** The reserving legs as the engine read them (its leg records), reversed by a void. */
    legs: jsonb('legs').notNull(),
    /** The limits it counts against ({ memberId, name, day, amount }), given back by a void. */
    limits: jsonb('limits').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  // Not-final pending transfers by stage: what the payer takes and the records of what is under way.
  (t) => [index('ledger_pending_open_idx').on(t.stage, t.id).where(sql`${t.stage} NOT IN ('posted', 'voided')`)],
);

/** Why a withdrawal failed (operator: `rejected`; chain: `reverted`, `nonceUsed`): the void's business row. */
export const withdrawalFailures = pgTable('withdrawal_failures', {
  withdrawalId: bigint('withdrawal_id', { mode: 'bigint' }).primaryKey(),
  reason: text('reason').notNull(),
  createdAt: createdAt(),
  /** What the operator who failed it wrote (opsWithdrawalDecide's reason); null for the chain's failures. */
  note: text('note'),
});

/**
 * Operators' approvals of withdrawals (server/ops/withdrawalDecisions.ts): one row per withdrawal and operator
 * address, so the same operator approving twice counts once. Above APPROVAL_QUORUM_ABOVE two rows approve it.
 */
export const withdrawalApprovals = pgTable(
  'withdrawal_approvals',
  {
    withdrawalId: bigint('withdrawal_id', { mode: 'bigint' })
      .notNull()
      .references(() => withdrawals.id),
    /** The operator's EIP-55 address. */
    operator: text('operator').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.withdrawalId, t.operator] })],
);

/** Members whose withdrawals an operator froze (server/members/freezes.ts); unfreezing deletes the row. */
export const memberFreezes = pgTable('member_freezes', {
  memberId: integer('member_id')
    .primaryKey()
    .references(() => members.id),
  reason: text('reason').notNull(),
  /** The operator's address; null on rows of the removed ADMIN_TOKEN. */
  frozenBy: text('frozen_by'),
  frozenAt: timestamp('frozen_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Operators' grants (amount > 0) and deductions (< 0) with their reason (server/ledger/adjustments.ts): written by
 * the ledger engine with the two-phase transfer whose id it shares (ledger_pending: `waiting` for a second operator
 * above APPROVAL_QUORUM_ABOVE, else `posted` at once).
 */
export const opsAdjustments = pgTable(
  'ops_adjustments',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id),
    asset: text('asset').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    reason: text('reason').notNull(),
    requestId: text('request_id').notNull(),
    /** The requesting operator's address; null on rows of the removed ADMIN_TOKEN. */
    requestedBy: text('requested_by'),
    createdAt: createdAt(),
  },
  (t) => [check('ops_adjustments_amount', sql`${t.amount} <> 0`)],
);

/** A waiting adjustment's confirmation by a second operator, written by the ledger engine with its move. */
export const opsAdjustmentConfirmations = pgTable('ops_adjustment_confirmations', {
  adjustmentId: bigint('adjustment_id', { mode: 'bigint' })
    .primaryKey()
    .references(() => opsAdjustments.id),
  confirmedBy: text('confirmed_by').notNull(),
  createdAt: createdAt(),
});

/**
 * The payer's hot wallet (server/chain/payer/lease.ts): the next nonce it signs with, and the lease that lets one server
 * instance at a time pay from it.
 */
export const payerAccounts = pgTable('payer_accounts', {
  address: text('address').primaryKey(),
  chainId: integer('chain_id').notNull(),
  nextNonce: bigint('next_nonce', { mode: 'bigint' }).notNull(),
  leaseHolder: text('lease_holder'),
  leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
});

/**
 * A withdrawal's payment transactions, signed and stored before they are broadcast: the first, and any same-nonce
 * replacement of a stuck one (whichever is mined is the payment). `raw` is the signed transaction as sent.
 */
export const payments = pgTable(
  'payments',
  {
    hash: text('hash').primaryKey(),
    withdrawalId: bigint('withdrawal_id', { mode: 'bigint' }).notNull(),
    chainId: integer('chain_id').notNull(),
    payer: text('payer').notNull(),
    nonce: bigint('nonce', { mode: 'bigint' }).notNull(),
    /** What the member receives in token units (the withdrawal's amount less fee, scaled to the token's decimals). */
    tokenAmount: text('token_amount').notNull(),
    maxFeePerGas: text('max_fee_per_gas').notNull(),
    maxPriorityFeePerGas: text('max_priority_fee_per_gas').notNull(),
    raw: text('raw').notNull(),
    createdAt: createdAt(),
    /** The receipt, once mined: its block and status (1 paid, 0 reverted) and the gas it used. */
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    blockHash: text('block_hash'),
    receiptStatus: integer('receipt_status'),
    gasUsed: bigint('gas_used', { mode: 'bigint' }),
  },
  (t) => [
    index('payments_withdrawal_idx').on(t.withdrawalId),
    index('payments_payer_nonce_idx').on(t.payer, t.nonce),
    // The payer's watch of recent receipts (server/chain/payer/watchPosted.ts) and the receipts the chain lost or
    // mined as reverted (the watch and reconcile): a round reads these, never the whole table.
    index('payments_payer_block_idx').on(t.payer, t.blockNumber).where(sql`${t.blockHash} IS NOT NULL`),
    index('payments_lost_idx').on(t.payer).where(sql`${t.receiptStatus} IS NOT NULL AND (${t.blockHash} IS NULL OR ${t.receiptStatus} = 0)`),
  ],
);

/**
 * What the chain shows the hot wallet did that the database did not know (server/chain/payer/recovery.ts, the
 * recovery from the chain): a payment to a withdrawal it never saw (a restored backup, a lossy failover), one to a
 * withdrawal not waiting for it, an untagged token transfer, or another transaction of the key. Each holds payouts
 * until an operator settles it through the ledger (debit the member, or write it off), audited.
 */
export const unknownPayments = pgTable(
  'unknown_payments',
  {
    hash: text('hash').primaryKey(),
    chainId: integer('chain_id').notNull(),
    payer: text('payer').notNull(),
    nonce: bigint('nonce', { mode: 'bigint' }).notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    /** `unknownWithdrawal`, `notApproved`, `untagged` or `foreign` (no token moved). */
    kind: text('kind').notNull(),
    /** The token transfer's recipient and amount (token units), when it is one. */
    toAddress: text('to_address'),
    tokenAmount: text('token_amount'),
    /** The amount in ledger minor units (0 for a transaction that moved no token). */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** The withdrawal its calldata names, if tagged (server/chain/payer/paymentTag.ts). */
    namedWithdrawalId: bigint('named_withdrawal_id', { mode: 'bigint' }),
    memberId: integer('member_id').references(() => members.id),
    foundAt: timestamp('found_at', { withTimezone: true, mode: 'date' }).notNull(),
    foundBy: text('found_by'),
    /** `debit` (the member's credit) or `writeOff`, once settled. */
    settlement: text('settlement'),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
    settledBy: text('settled_by'),
    settleReason: text('settle_reason'),
  },
  (t) => [uniqueIndex('unknown_payments_payer_nonce_idx').on(t.payer, t.nonce), index('unknown_payments_open_idx').on(t.foundAt).where(sql`${t.settledAt} IS NULL`)],
);

/**
 * Rate limits as counters (TigerBeetle's recipe keeps them as account balances): a member's running total of one
 * named limit on one UTC day, e.g. `withdrawCredit` against dailyWithdrawCap. The ledger engine adds a request's
 * amount under the member account's lock, only while the total stays within the cap, and a reversal (a failed
 * withdrawal) takes it back out; the check reads one row instead of adding up the day's movements.
 */
export const ledgerLimits = pgTable(
  'ledger_limits',
  {
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id),
    name: text('name').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    total: bigint('total', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.name, t.day] }), check('ledger_limits_total_nonnegative', sql`${t.total} >= 0`)],
);

/**
 * Share pools (docs/API.md "WPOS"): each pays its daily amount (`total_amount`, WPOS minor units) at 00:00 UTC to the
 * members holding at least `min_holding`, pro rata to their balances. Seeded; the content role edits them (opsPoolPut).
 */
export const sharePools = pgTable(
  'share_pools',
  {
    id: integer('id').primaryKey(),
    name: text('name').notNull().unique(),
    totalAmount: bigint('total_amount', { mode: 'bigint' }).notNull(),
    minHolding: bigint('min_holding', { mode: 'bigint' }).notNull(),
  },
  (t) => [check('share_pools_amounts', sql`${t.totalAmount} > 0 AND ${t.minHolding} >= 0`)],
);

/**
 * One row per pool and UTC day that pays: the payout's plan, written with its shares (share_pool_shares) in one
 * transaction (server/ledger/sharePools.ts), so a day is planned at most once; `remaining` counts the holders not
 * paid yet, and the batch that pays the last one sets `completed_at`.
 */
export const sharePoolPayouts = pgTable(
  'share_pool_payouts',
  {
    poolId: integer('pool_id')
      .notNull()
      .references(() => sharePools.id),
    day: date('day', { mode: 'string' }).notNull(),
    paid: bigint('paid', { mode: 'bigint' }).notNull(),
    holders: integer('holders').notNull(),
    remaining: integer('remaining').notNull().default(0),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.poolId, t.day] }),
    check('share_pool_payouts_paid', sql`${t.paid} > 0 AND ${t.holders} > 0`),
    check('share_pool_payouts_remaining', sql`${t.remaining} BETWEEN 0 AND ${t.holders} AND (${t.remaining} = 0) = (${t.completedAt} IS NOT NULL)`),
  ],
);

/**
 * The shares a planned payout has still to pay, one row per holder: a batch deletes the rows it pays in the
 * transaction that pays them, so a holder is paid at most once whatever crashes, and the table empties as it pays.
 */
export const sharePoolShares = pgTable(
  'share_pool_shares',
  {
    poolId: integer('pool_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    memberId: integer('member_id').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    // No foreign key to the payout, as on the ledger's rows (ADR 0012): only the plan writes them, with its payout row,
    // and a foreign key check per share is a second of a million-holder plan.
    primaryKey({ columns: [t.poolId, t.day, t.memberId] }),
    check('share_pool_shares_amount', sql`${t.amount} > 0`),
  ],
);

/**
 * Transfers: every movement of money, from one account to another of the same asset, a positive amount, never
 * changed afterwards (TigerBeetle's transfer, pgledger's pgledger_transfers). `type` is the record type a member
 * sees (withdraw, reward, ...) or an internal one (fee) for transfers between system accounts.
 */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    asset: text('asset').notNull(),
    type: text('type').notNull(),
    // No foreign keys on the ledger's rows (ADR 0012): only the ledger's SQL functions write them, with ids of rows
    // they just locked or wrote, and the books check finds any dangling reference (server/ledger/queries.ts).
    debitAccountId: integer('debit_account_id').notNull(),
    creditAccountId: integer('credit_account_id').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** The pending transfer (ledger_pending) this transfer reserves, posts or voids. */
    pendingId: bigint('pending_id', { mode: 'bigint' }),
    memo: text('memo'),
    createdAt: createdAt(),
  },
  // No index on pending_id: records reach the pending transfer from the transfer (its key), never the other way.
  // Money across the chain boundary by day (server/ops/overview.ts): only transfers from or to the CREDIT `chain`
  // account (id 7, systemAccountId('CREDIT', 'chain')) are in these, so the other flows write no index row; with the
  // amount in the key a day's sum is read from the index alone.
  (t) => [
    index('ledger_transfers_chain_in_idx').on(t.createdAt, t.amount).where(sql`${t.debitAccountId} = 7`),
    index('ledger_transfers_chain_out_idx').on(t.createdAt, t.amount).where(sql`${t.creditAccountId} = 7`),
    check('ledger_transfers_amount_positive', sql`${t.amount} > 0`),
    check('ledger_transfers_two_accounts', sql`${t.debitAccountId} <> ${t.creditAccountId}`),
    check('ledger_transfers_asset', sql`${t.asset} IN ('CREDIT', 'WPOS')`),
  ],
);

/**
 * Entries: the member legs of each transfer, -amount on a debited member account and +amount on a credited one,
 * each with the balance before and after it and the account's version (pgledger's pgledger_entries), so a member's
 * records need no running sum and replaying the latest one gives the balance. System accounts keep no running
 * balance and have no entries: their balance is the sum of the transfers in and out (ADR 0012).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    // No foreign keys, as on ledger_transfers (ADR 0012).
    transferId: bigint('transfer_id', { mode: 'bigint' }).notNull(),
    accountId: integer('account_id').notNull(),
    asset: text('asset').notNull(),
    /** Signed: negative on the debit leg. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    previousBalance: bigint('previous_balance', { mode: 'bigint' }).notNull(),
    currentBalance: bigint('current_balance', { mode: 'bigint' }).notNull(),
    accountVersion: bigint('account_version', { mode: 'bigint' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.accountId, t.id),
    check('ledger_entries_amount_nonzero', sql`${t.amount} <> 0`),
    check(
      'ledger_entries_member_balance',
      sql`${t.currentBalance} = ${t.previousBalance} + ${t.amount} AND ${t.currentBalance} >= 0 AND ${t.accountVersion} > 0`,
    ),
  ],
);

/**
 * The first outcome of each money request, by (scope, endpoint, requestId) (docs/API.md, "Money: one ledger, at most once
 * per request id"). A request writes its row in the same transaction as its money (or with its rejection), while it
 * holds a transaction-scoped advisory lock on the key, so there is never a row without its outcome (ADR 0012).
 * Kept at least 24 hours (server/ledger/idempotency.ts).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** member:<id>, operator:<key>, or the flow's own (withdrawal, chain:<id>, ops). */
    scope: text('scope').notNull(),
    endpoint: text('endpoint').notNull(),
    requestId: text('request_id').notNull(),
    /** Hex sha256 of the canonical body (requestId left out). */
    bodyHash: text('body_hash').notNull(),
    /** The envelope code of the first outcome: 0, or the rejection's code. */
    code: integer('code').notNull(),
    /** The result of a success, `{ message }` of a rejection. */
    result: jsonb('result'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.endpoint, t.requestId] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);

/**
 * Quantities the money flows draw from, by name: a goods item's stock is `stock:<goodsId>`. The ledger engine locks
 * them in name order after the accounts and draws a request's quantity only while it stays ≥ 0 (TigerBeetle's
 * recipe of a limit kept as a balance), so two members never buy the same last unit.
 */
export const ledgerCounters = pgTable(
  'ledger_counters',
  {
    key: text('key').primaryKey(),
    available: bigint('available', { mode: 'bigint' }).notNull(),
  },
  (t) => [check('ledger_counters_available', sql`${t.available} >= 0`)],
);

/**
 * Goods of the buy flow (docs/API.md "Buy flow"): seeded, edited by the content role (opsGoodsPut); the stock is the
 * counter `stock:<id>` in ledger_counters.
 */
export const goods = pgTable(
  'goods',
  {
    id: text('id').primaryKey(),
    nameZh: text('name_zh').notNull(),
    nameEn: text('name_en').notNull(),
    /** The image's path on this server (server/seed/goods/). */
    image: text('image').notNull(),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    /** The list's order. */
    position: integer('position').notNull(),
    /** Members see and buy only listed goods; an operator unlists instead of deleting (orders keep their goods). */
    listed: boolean('listed').notNull().default(true),
  },
  (t) => [check('goods_price', sql`${t.price} > 0`), index('goods_position_idx').on(t.position, t.id)],
);

/**
 * Shipping addresses. At most one default per member by the partial unique index, and at least one whenever the
 * member has any by a deferred constraint trigger (migration 0013): "exactly one default" is the database's rule.
 */
export const deliveryAddresses = pgTable(
  'delivery_addresses',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    region: text('region').notNull(),
    detail: text('detail').notNull(),
    isDefault: boolean('is_default').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('delivery_addresses_member_idx').on(t.memberId, t.id),
    uniqueIndex('delivery_addresses_one_default').on(t.memberId).where(sql`${t.isDefault}`),
  ],
);

/**
 * Orders: the business row of a settlement, written by the ledger engine with its payment and the stock it draws.
 * `address` is the copy kept at settlement (later edits and deletes of the address do not change it).
 */
export const orders = pgTable(
  'orders',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id),
    goodsId: text('goods_id')
      .notNull()
      .references(() => goods.id),
    quantity: integer('quantity').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    status: text('status').notNull().default('paid'),
    address: jsonb('address').notNull(),
    createdAt: createdAt(),
    /** Set by support when it ships (docs/API.md, "Operators: orders"), with the tracking number and time. */
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    shippedAt: timestamp('shipped_at', { withTimezone: true, mode: 'date' }),
    /** Set by support when it cancels an unshipped order; its refund is in the same transaction. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    cancelReason: text('cancel_reason'),
  },
  (t) => [
    index('orders_member_idx').on(t.memberId, t.id),
    // The desk's lists by status, newest first.
    index('orders_status_idx').on(t.status, t.id),
    check('orders_amounts', sql`${t.quantity} BETWEEN 1 AND 999 AND ${t.amount} > 0`),
    check('orders_status', sql`${t.status} IN ('pending', 'paid', 'shipped', 'failed', 'cancelled')`),
    check('orders_shipped', sql`(${t.status} = 'shipped') = (${t.shippedAt} IS NOT NULL AND ${t.carrier} IS NOT NULL AND ${t.trackingNumber} IS NOT NULL)`),
    check('orders_cancelled', sql`(${t.status} = 'cancelled') = (${t.cancelledAt} IS NOT NULL AND ${t.cancelReason} IS NOT NULL)`),
  ],
);

/**
 * Top-ups (docs/API.md, "Credit on chain"): one row per token `Transfer` log to the treasury that was credited, written by
 * the ledger engine with its money, once per (chain, transaction hash, the log's position among its transaction's
 * logs). `member_id` is the member credited
 * then, or null when the sender was no member yet and the amount was held (top_up_releases says when it reached
 * them). `amount` is minor units (6 decimals), the token amount rounded down.
 */
export const topUps = pgTable(
  'top_ups',
  {
    chainId: integer('chain_id').notNull(),
    txHash: text('tx_hash').notNull(),
    /**
     * The log's position among its transaction's logs (its index in the receipt's logs), which a reorganisation
     * cannot change, unlike its index in the block. Below 0 for a row credited before migration 0018, keyed by the
     * block's log index then: -1 - that index; such a transaction counts as credited whole (server/chain/topUps.ts).
     */
    logPosition: integer('log_position').notNull(),
    fromAddress: text('from_address').notNull(),
    memberId: integer('member_id'),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** Where the watcher last read the transaction; the hash is null for a row of before 0018 not read since. */
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash'),
    /** When the watcher read the block range it was in and did not find it (a reorganisation removed it); null while on chain. */
    reorgedAt: timestamp('reorged_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.txHash, t.logPosition] }),
    // Held top-ups by sender, for the release at a sign-in.
    index('top_ups_held_idx').on(t.fromAddress).where(sql`${t.memberId} IS NULL`),
    // The credits in a block range the watcher read, to find those it no longer has.
    index('top_ups_block_idx').on(t.chainId, t.blockNumber),
    // Credits a reorganisation removed, for reconcile.
    index('top_ups_reorged_idx').on(t.chainId).where(sql`${t.reorgedAt} IS NOT NULL`),
    check('top_ups_amount', sql`${t.amount} > 0`),
  ],
);

/** A held top-up credited to its sender once they became a member: written by the engine with the money it moves. */
export const topUpReleases = pgTable(
  'top_up_releases',
  {
    chainId: integer('chain_id').notNull(),
    txHash: text('tx_hash').notNull(),
    /** The top_ups row's logPosition. */
    logPosition: integer('log_position').notNull(),
    memberId: integer('member_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logPosition] })],
);

/**
 * The top-up watcher's cursor: the last blocks it read up to, each with its hash, so that it notices a
 * reorganisation below it (a kept hash the chain no longer has) and reads again from the newest block still on the
 * chain. A few of the latest are kept per chain.
 */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    chainId: integer('chain_id').notNull(),
    number: bigint('number', { mode: 'bigint' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.number] })],
);

/**
 * The first block the top-up watcher kept as its cursor on a chain: it reads only the blocks after it, so reconcile's
 * check of the treasury's inflows (server/chain/inflowCheck.ts) starts there too. Written once, never pruned.
 */
export const topUpWatchStarts = pgTable('top_up_watch_starts', {
  chainId: integer('chain_id').primaryKey(),
  firstCursor: bigint('first_cursor', { mode: 'bigint' }).notNull(),
});

/**
 * Operators (docs/API.md, "Operators"): the people who run the app, each by wallet address, with their roles
 * (finance, support, content, admin; admin holds every role). A removed operator keeps the row (removed_at), so the
 * audit log's addresses stay explained; adding them again clears it.
 */
export const operators = pgTable(
  'operators',
  {
    /** EIP-55, as the strict SIWE parser and viem's getAddress give it. */
    address: text('address').primaryKey(),
    roles: text('roles').array().notNull(),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Who added them: an operator's address, or null for OPS_FIRST_ADMIN, the CLI or the seed. */
    addedBy: text('added_by'),
    removedAt: timestamp('removed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('operators_roles_known', sql`cardinality(${t.roles}) > 0 AND ${t.roles} <@ ARRAY['finance', 'support', 'content', 'admin']::text[]`),
  ],
);

/**
 * Changes to the operators that wait for a second admin (server/ops/operatorChanges.ts): a put (roles) or a remove
 * asked for by one admin, done when another admin confirms it (confirmed_by, confirmed_at), or no longer counting
 * (cancelled_at) once withdrawn or once its requester is no admin. A sole admin's change is done at once: its row
 * has the requester as confirmer.
 */
export const operatorChanges = pgTable(
  'operator_changes',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    /** put or remove. */
    kind: text('kind').notNull(),
    /** The operator the change is about (EIP-55). */
    address: text('address').notNull(),
    /** The roles a put sets; null for a remove. */
    roles: text('roles').array(),
    requestedBy: text('requested_by')
      .notNull()
      .references(() => operators.address),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
    confirmedBy: text('confirmed_by').references(() => operators.address),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('operator_changes_waiting_idx').on(t.id).where(sql`${t.confirmedAt} IS NULL AND ${t.cancelledAt} IS NULL`),
    check('operator_changes_kind', sql`(${t.kind} = 'put' AND ${t.roles} IS NOT NULL) OR (${t.kind} = 'remove' AND ${t.roles} IS NULL)`),
    check('operator_changes_roles_known', sql`${t.roles} IS NULL OR (cardinality(${t.roles}) > 0 AND ${t.roles} <@ ARRAY['finance', 'support', 'content', 'admin']::text[])`),
    check('operator_changes_decided_once', sql`${t.confirmedAt} IS NULL OR ${t.cancelledAt} IS NULL`),
    check('operator_changes_confirmed', sql`(${t.confirmedBy} IS NULL) = (${t.confirmedAt} IS NULL)`),
  ],
);

/** Operator sign-in nonces: as members' (nonces), in a table of their own so neither sign-in can use the other's. */
export const operatorNonces = pgTable(
  'operator_nonces',
  {
    value: text('value').primaryKey(),
    address: text('address').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('operator_nonces_expires_at_idx').on(t.expiresAt)],
);

/** Operator sessions: only the token's sha256 is stored; a session lives 12 hours and ends at logout or removal. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    hash: text('hash').primaryKey(),
    address: text('address')
      .notNull()
      .references(() => operators.address),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('operator_sessions_address_idx').on(t.address)],
);

/**
 * Operators' API keys for scripts: `mdk_<id>_<secret>` (32 random bytes), shown once; only the whole key's sha256 is
 * stored. A key acts with its roles as far as its creator still holds them, and dies with its creator's removal.
 */
export const operatorApiKeys = pgTable(
  'operator_api_keys',
  {
    id: text('id').primaryKey(),
    label: text('label').notNull(),
    roles: text('roles').array().notNull(),
    hash: text('hash').notNull().unique(),
    createdBy: text('created_by')
      .notNull()
      .references(() => operators.address),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('operator_api_keys_created_by_idx').on(t.createdBy),
    check('operator_api_keys_roles_known', sql`cardinality(${t.roles}) > 0 AND ${t.roles} <@ ARRAY['finance', 'support', 'content', 'admin']::text[]`),
  ],
);

/**
 * Every operator act (server/ops/audit.ts): who (address, roles, how they signed in), what (the action, its target,
 * before and after), when, the request id and the client address. Append-only in the database: a trigger of
 * migration 0019 refuses UPDATE, DELETE and TRUNCATE, whoever asks. No foreign keys: a row outlives what it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Null for a setting or the CLI (nobody in particular), and on rows of the removed ADMIN_TOKEN. */
    actorAddress: text('actor_address'),
    actorRoles: text('actor_roles').array().notNull(),
    /** session, apiKey, bootstrap, cli, setting or seed. */
    via: text('via').notNull(),
    /** The contract name of the call (opsOperatorPut, adminGrant, ...). */
    action: text('action').notNull(),
    target: text('target'),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: text('request_id'),
    clientAddress: text('client_address'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_actor_idx').on(t.actorAddress, t.id),
    index('audit_log_action_idx').on(t.action, t.id),
    index('audit_log_target_idx').on(t.target, t.id),
  ],
);

/**
 * What operators moved alone under the operators' policy (server/ops/policy.ts): one row per act that moved value,
 * written in the act's transaction, so the rolling 24-hour totals per operator and per member count every act,
 * however it was split. `confirmedBy` is the second operator of an act above what one may do alone.
 */
export const opsPolicyUsage = pgTable(
  'ops_policy_usage',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    act: text('act').notNull(),
    operator: text('operator').notNull(),
    memberId: integer('member_id'),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    confirmedBy: text('confirmed_by'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('ops_policy_usage_operator_idx').on(t.act, t.operator, t.at),
    index('ops_policy_usage_member_idx').on(t.act, t.memberId, t.at),
    check('ops_policy_usage_amount', sql`${t.amount} >= 0`),
  ],
);

/**
 * Operators' approvals of an act that waits for a second operator (server/ops/policy.ts): a held top-up's release,
 * an order's refund. One row per (act, target, operator), so the same operator twice counts once.
 */
export const opsApprovals = pgTable(
  'ops_approvals',
  {
    act: text('act').notNull(),
    target: text('target').notNull(),
    operator: text('operator').notNull(),
    /** What was approved (the member a release goes to): a second approval of something else does not count. */
    subject: text('subject').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.act, t.target, t.operator] })],
);

/**
 * The rate limits' counters when the server runs on PostgreSQL (server/plugins/rateLimitStore.ts), so every instance
 * counts against one limit: a fixed window per route (`bucket`) and client (`key`), restarted by the first hit after
 * `resets_at`. Rows past `resets_at` mean nothing; a hit now and then deletes them on the index.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    hits: integer('hits').notNull(),
    resetsAt: timestamp('resets_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] }), index('rate_limits_resets_at_idx').on(t.resetsAt)],
);

/**
 * Leases of the jobs one instance runs for all (server/db/leases.ts): the scheduled reconcile. The database's clock
 * decides expiry, so instances need not agree on time; a job's holder renews its lease at each round.
 */
export const instanceLeases = pgTable('instance_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Reconcile's scheduled runs (server/chain/reconcileSchedule.ts): what each found, for the metrics, the alerts and
 * the desk on every instance. `difference` is backing − owed in minor units; `result` the reconcile call's answer.
 * Swept after RECONCILE_RUNS_KEPT_DAYS (server/retention.ts), the newest run always kept.
 */
export const reconcileRuns = pgTable(
  'reconcile_runs',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    ranAt: timestamp('ran_at', { withTimezone: true, mode: 'date' }).notNull(),
    ok: boolean('ok').notNull(),
    difference: bigint('difference', { mode: 'bigint' }).notNull(),
    result: jsonb('result').notNull(),
  },
  (t) => [index('reconcile_runs_ran_at_idx').on(t.ranAt)],
);

/**
 * The alerts (server/alerts/): one row per time a rule fired, ended when it resolved. At most one open row per rule.
 * Kept for ever (few, and each is in the audit log too).
 */
export const alerts = pgTable(
  'alerts',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    rule: text('rule').notNull(),
    severity: text('severity').notNull(),
    summary: text('summary').notNull(),
    /** What the rule saw when it fired (the figure against its threshold). */
    description: text('description').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('alerts_open_rule_idx').on(t.rule).where(sql`${t.endedAt} IS NULL`), index('alerts_started_at_idx').on(t.startedAt)],
);

/**
 * An alert's firing or resolving, to be sent to one webhook (ALERT_WEBHOOK_URLS): the payload fixed when the event
 * happened, so every attempt sends the same event; a sender claims a row for a while before it posts, so two
 * instances never send one event at once. Delivered rows are swept after 30 days (server/retention.ts).
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    alertId: bigint('alert_id', { mode: 'bigint' })
      .notNull()
      .references(() => alerts.id),
    event: text('event').notNull(),
    url: text('url').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
  },
  (t) => [
    unique('alert_deliveries_event_url').on(t.alertId, t.event, t.url),
    index('alert_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.deliveredAt} IS NULL`),
  ],
);

/**
 * Payouts paused on doubt (server/chain/payer/pause.ts): a row per pause, opened by the payer when reconcile is not
 * ok, a payment is lost or unknown, its journal is halted or the chain is stale (`causes`: what it saw), and closed
 * by two finance operators (opsPayoutsResume: `resumed_by` requested it, `confirmed_by` confirmed it). At most one
 * open. Kept for ever (few, and each opening and resuming is in the audit log too).
 */
export const payoutPauses = pgTable(
  'payout_pauses',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    causes: jsonb('causes').notNull(),
    pausedAt: timestamp('paused_at', { withTimezone: true, mode: 'date' }).notNull(),
    resumedAt: timestamp('resumed_at', { withTimezone: true, mode: 'date' }),
    resumedBy: text('resumed_by'),
    confirmedBy: text('confirmed_by'),
  },
  (t) => [uniqueIndex('payout_pauses_open_idx').on(sql`(${t.resumedAt} IS NULL)`).where(sql`${t.resumedAt} IS NULL`)],
);
