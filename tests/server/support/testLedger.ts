/**
 * Ledger helpers for server tests: the test treasury's calls (a finance operator's API key, added at every reset:
 * tests/support/treasury.ts) and a check of the books after every step. Every test funds members through grant().
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, vi } from 'vitest';
import { z } from 'zod';
import { queryRows, type Db } from '../../../server/db/client';
import { getAddress } from 'viem';
import { toMinor } from '../../../api-schema/amount';
import { ApiCode } from '../../../api-schema/codes';
import { ISSUANCE_ACCOUNTS, systemAccountId, type FundedAccount } from '../../../server/ledger/accounts';
import { fundingRequest } from '../../../server/ledger/funding';
import { postRequests } from '../../../server/ledger/engine';
import { memberIdByAddress } from '../../../server/ledger/queries';
import { SEED_GOODS } from '../../../server/seed/content';
import { treasuryHeaders } from '../../support/treasury';
import { authHeaders } from './memberSignIn';

export { TEST_TREASURY_ADDRESS, treasuryHeaders } from '../../support/treasury';

/** The database each test app runs on (the harness tells), so set-up can fund members on it. */
const databaseOfApp = new WeakMap<FastifyInstance, { db: Db; now: () => Date }>();

export function rememberDatabase(app: FastifyInstance, db: Db, now: () => Date): void {
  databaseOfApp.set(app, { db, now });
}

/** A set-up answer shaped as the server's envelope, read with envelope() like an HTTP answer. */
export type SetUpAnswer = Pick<LightMyRequestResponse, 'json' | 'body' | 'statusCode'>;

type GrantBody = { address: string; asset?: 'CREDIT' | 'WPOS'; amount: string; requestId: string; memo?: string };

/**
 * Funds a member for a test: CREDIT or WPOS from issuance to the member through the ledger engine on the app's
 * database, at most once per request id, as money reaches members in the app (a top-up from the chain) and not
 * as an operator's act, which the operators' policy would bound (its own suites test that). With `headers`, the
 * operator's real call, POST /api/admin/grant, under the policy.
 */
export function grant(app: FastifyInstance, body: GrantBody): Promise<SetUpAnswer>;
export function grant(app: FastifyInstance, body: GrantBody, headers: Record<string, string>): Promise<LightMyRequestResponse>;
export async function grant(app: FastifyInstance, body: GrantBody, headers?: Record<string, string>): Promise<SetUpAnswer | LightMyRequestResponse> {
  if (headers) return app.inject({ method: 'POST', url: '/api/admin/grant', headers, payload: { asset: 'CREDIT', ...body } });
  const built = databaseOfApp.get(app);
  if (!built) throw new Error('grant: the app was not built by the test harness (ctx.app)');
  const { db, now } = built;
  const asset = body.asset ?? 'CREDIT';
  const memberId = await memberIdByAddress(db, getAddress(body.address));
  const amount = toMinor(body.amount);
  const [outcome] = await postRequests(db, [
    {
      key: { scope: 'test:setUp', endpoint: 'grant', requestId: body.requestId, body: { address: body.address, asset, amount: body.amount } },
      now: now(),
      reject: memberId === undefined ? ApiCode.notFound : undefined,
      legs: [{ asset, type: 'reward', from: { system: systemAccountId(asset, 'issuance') }, to: { member: memberId ?? 0 }, amount, memo: body.memo }],
      result: { id: '$entry', balanceAfter: '$balanceAfter' },
    },
  ]);
  const answer = outcome?.code === 0 ? { code: 0, result: outcome.result } : { code: outcome?.code ?? ApiCode.internal };
  const text = JSON.stringify(answer);
  return { statusCode: outcome?.code === 0 ? 200 : 409, body: text, json: <T>() => JSON.parse(text) as T };
}

/**
 * Funds the share pools' WPOS or the exchange's CREDIT for a test, as finance does (POST /api/admin/fund) but as
 * set-up, not an operator's act.
 */
export async function fundSystemAccount(db: Db, account: FundedAccount, amount: string): Promise<void> {
  const [outcome] = await postRequests(db, [fundingRequest(account, toMinor(amount), new Date())]);
  expect(outcome?.code).toBe(0);
}

export function withdraw(app: FastifyInstance, token: string, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/member/withdrawCredit', headers: authHeaders(token), payload: body });
}

export function decide(app: FastifyInstance, body: Record<string, unknown>, headers = treasuryHeaders()): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/admin/withdrawal/decide', headers, payload: body });
}

const big = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));

/** Every member account's balance by member id and asset. */
export async function memberBalances(db: Db): Promise<Map<string, bigint>> {
  const rows = await queryRows(
    db,
    sql`SELECT member_id AS "memberId", asset, balance FROM ledger_accounts WHERE member_id IS NOT NULL`,
    z.object({ memberId: z.number(), asset: z.string(), balance: big }),
  );
  return new Map(rows.map((row) => [`${row.memberId}:${row.asset}`, row.balance]));
}

/**
 * Work that is still running on another connection (another server instance): a transaction that has done `work`
 * and waits. `end()` commits it. PostgreSQL only: PGlite is one session.
 */
export async function holdTransaction(db: Db, work: (tx: Db) => Promise<unknown>): Promise<{ end: () => Promise<void> }> {
  let finish = (): void => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let done = (): void => undefined;
  const isDone = new Promise<void>((resolve) => {
    done = resolve;
  });
  const held = db.transaction(async (tx) => {
    await work(tx);
    done();
    await finished;
  });
  await Promise.race([isDone, held]);
  return {
    end: async () => {
      finish();
      await held;
    },
  };
}

/**
 * A first request that is still running on another connection: a transaction that has opened the key
 * (the request id's lock, ledger_key_lock) and waits. `die()` ends it without an outcome, as a process that dies would.
 */
export async function holdRequestKey(db: Db, key: { scope: string; endpoint: string; requestId: string }): Promise<{ die: () => Promise<void> }> {
  const held = await holdTransaction(db, (tx) =>
    tx.execute(sql`SELECT pg_advisory_xact_lock(ledger_key_lock(${key.scope}, ${key.endpoint}, ${key.requestId}))`),
  );
  return { die: held.end };
}

/**
 * Resolves once some other session of this database waits for a lock (PostgreSQL's pg_stat_activity), polling with
 * vitest's waitFor for at most `timeoutMs`; rejects when none did.
 */
export async function someoneWaitsForALock(db: Db, timeoutMs = 10_000): Promise<void> {
  await vi.waitFor(
    async () => {
      const [row] = await queryRows(
        db,
        sql`SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        z.object({ waiting: z.number() }),
      );
      if ((row?.waiting ?? 0) === 0) throw new Error(`no session waited for a lock within ${timeoutMs} ms`);
    },
    { timeout: timeoutMs, interval: 20 },
  );
}

/** A system account's balance: the transfers into it less those out of it (system accounts keep no entries). */
export async function systemBalance(db: Db, accountId: number): Promise<string> {
  const [row] = await queryRows(
    db,
    sql`SELECT (coalesce(sum(CASE WHEN credit_account_id = ${accountId} THEN amount END), 0)
          - coalesce(sum(CASE WHEN debit_account_id = ${accountId} THEN amount END), 0))::text AS balance
        FROM ledger_transfers WHERE ${accountId} IN (debit_account_id, credit_account_id)`,
    z.object({ balance: z.string() }),
  );
  return row?.balance ?? '0';
}

/** Each member's CREDIT account id. */
async function memberCreditAccounts(db: Db): Promise<Map<number, number>> {
  const rows = await queryRows(db, sql`SELECT member_id AS "memberId", id FROM ledger_accounts WHERE asset = 'CREDIT' AND member_id IS NOT NULL`, z.object({ memberId: z.number(), id: z.number() }));
  return new Map(rows.map((row) => [row.memberId, row.id]));
}

/**
 * The books balance: per asset the member accounts plus the system accounts (the sums of their transfers) are
 * zero; every member leg of a transfer has exactly one entry with the signed amount and no entry lacks its
 * transfer; no transfer or entry names an account or withdrawal that does not exist (the ledger's rows carry no
 * foreign keys: ADR 0012); no member account is negative, and every member account's balance equals its latest
 * entry's balance after it (0 with no entries yet) and the sum of its entries (so replaying the records gives
 * meInfo's balance).
 */
export async function expectBooksBalanced(db: Db): Promise<void> {
  const totals = await queryRows(
    db,
    sql`SELECT a.asset, (SELECT coalesce(sum(balance), 0) FROM ledger_accounts WHERE asset = a.asset AND member_id IS NOT NULL)
          + (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE asset = a.asset AND credit_account_id < 1000)
          - (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE asset = a.asset AND debit_account_id < 1000) AS total
        FROM (VALUES ('CREDIT'), ('WPOS')) AS a(asset)`,
    z.object({ asset: z.string(), total: big }),
  );
  expect(totals.map((row) => [row.asset, row.total])).toEqual([
    ['CREDIT', 0n],
    ['WPOS', 0n],
  ]);
  const legs = await queryRows(
    db,
    sql`WITH leg AS (
          SELECT id AS transfer_id, debit_account_id AS account_id, -amount AS amount FROM ledger_transfers WHERE debit_account_id >= 1000
          UNION ALL
          SELECT id, credit_account_id, amount FROM ledger_transfers WHERE credit_account_id >= 1000
        ), entry AS (SELECT transfer_id, account_id, amount FROM ledger_entries)
        SELECT coalesce(leg.transfer_id, entry.transfer_id) AS "transferId" FROM leg
        FULL JOIN entry ON entry.transfer_id = leg.transfer_id AND entry.account_id = leg.account_id AND entry.amount = leg.amount
        WHERE leg.transfer_id IS NULL OR entry.transfer_id IS NULL
        UNION ALL
        SELECT transfer_id FROM ledger_entries GROUP BY transfer_id, account_id HAVING count(*) > 1`,
    z.object({ transferId: big }),
  );
  expect(legs).toEqual([]);
  const dangling = await queryRows(
    db,
    sql`SELECT t.id FROM ledger_transfers t
        WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = t.debit_account_id AND a.asset = t.asset)
          OR NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = t.credit_account_id AND a.asset = t.asset)
          OR (t.pending_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ledger_pending d WHERE d.id = t.pending_id))
        UNION ALL
        SELECT e.transfer_id FROM ledger_entries e WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = e.account_id AND a.member_id IS NOT NULL)`,
    z.object({ id: big }),
  );
  expect(dangling).toEqual([]);
  const wrong = await queryRows(
    db,
    sql`SELECT a.id, a.balance,
          (SELECT current_balance FROM ledger_entries WHERE account_id = a.id ORDER BY id DESC LIMIT 1) AS latest,
          (SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE account_id = a.id) AS summed
        FROM ledger_accounts a
        WHERE a.member_id IS NOT NULL AND (a.balance < 0
          OR a.balance <> coalesce((SELECT current_balance FROM ledger_entries WHERE account_id = a.id ORDER BY id DESC LIMIT 1), 0)
          OR a.balance <> (SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE account_id = a.id))`,
    z.object({ id: z.number(), balance: big, latest: big.nullable(), summed: big }),
  );
  expect(wrong).toEqual([]);
  // No system account but the issuance accounts is below zero by its transfers (no flow created money there), and a
  // funded account's kept balance is the sum of its transfers.
  const issuance = ISSUANCE_ACCOUNTS.map((account) => systemAccountId(account.asset, account.kind));
  const overdrawn = await queryRows(
    db,
    sql`SELECT a.id, a.funded, a.balance, s.summed FROM ledger_accounts a
        CROSS JOIN LATERAL (SELECT coalesce((SELECT sum(amount) FROM ledger_transfers WHERE credit_account_id = a.id), 0)
          - coalesce((SELECT sum(amount) FROM ledger_transfers WHERE debit_account_id = a.id), 0) AS summed) s
        WHERE a.member_id IS NULL AND ((a.id <> ALL (${`{${issuance.join(',')}}`}::int[]) AND s.summed < 0) OR (a.funded AND a.balance <> s.summed))`,
    z.object({ id: z.number(), funded: z.boolean(), balance: big, summed: big }),
  );
  expect(overdrawn).toEqual([]);
  // Each member account's entries are one chain: versions 1, 2, 3, ... in id order, each starting from the balance
  // the one before left, and the account's version is its last.
  const broken = await queryRows(
    db,
    sql`SELECT e.account_id AS "accountId" FROM (
          SELECT account_id, account_version, previous_balance,
            lag(current_balance, 1, 0::bigint) OVER w AS prior, row_number() OVER w AS nth
          FROM ledger_entries WINDOW w AS (PARTITION BY account_id ORDER BY id)
        ) e WHERE e.account_version <> e.nth OR e.previous_balance <> e.prior
        UNION ALL
        SELECT a.id FROM ledger_accounts a
        WHERE a.member_id IS NOT NULL AND a.version <> (SELECT count(*) FROM ledger_entries WHERE account_id = a.id)`,
    z.object({ accountId: z.number() }),
  );
  expect(broken).toEqual([]);
  // The daily totals the cap reads are the sums of the withdrawals not failed.
  const days = await queryRows(
    db,
    sql`SELECT coalesce(d.member_id, w.member_id) AS "memberId", d.total, w.total AS summed
        FROM (SELECT * FROM ledger_limits WHERE name = 'withdrawCredit') d
        FULL JOIN (SELECT w.member_id, (w.created_at AT TIME ZONE 'UTC')::date AS day, sum(w.amount) AS total
                   FROM withdrawals w JOIN ledger_pending p ON p.id = w.id
                   WHERE p.stage <> 'voided' AND w.member_id IS NOT NULL GROUP BY 1, 2) w ON w.member_id = d.member_id AND w.day = d.day
        WHERE d.total IS DISTINCT FROM coalesce(w.total, 0)`,
    z.object({ memberId: z.number(), total: big.nullable(), summed: big.nullable() }),
  );
  expect(days).toEqual([]);
  // Two-phase withdrawals: withdrawals payable holds the net amount of each one not posted nor voided, and each
  // one's transfers are its reservation, then nothing more (held, approved, sent), its payout (posted) or the
  // reversal of its reservation (voided).
  const payable = await queryRows(
    db,
    sql`SELECT (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE credit_account_id = 3)
          - (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE debit_account_id = 3) AS held,
          (SELECT coalesce(sum(w.amount - w.fee), 0) FROM withdrawals w JOIN ledger_pending p ON p.id = w.id
            WHERE p.stage NOT IN ('posted', 'voided')) AS owed`,
    z.object({ held: big, owed: big }),
  );
  expect(payable.map((row) => row.held - row.owed)).toEqual([0n]);
  const moves = await queryRows(
    db,
    sql`SELECT w.id, p.stage, string_agg(t.type || ':' || t.debit_account_id || '>' || t.credit_account_id || ':' || t.amount, ' ' ORDER BY t.id) AS legs,
          w.amount, w.fee, w.member_id AS "memberId"
        FROM withdrawals w JOIN ledger_pending p ON p.id = w.id LEFT JOIN ledger_transfers t ON t.pending_id = w.id
        GROUP BY w.id, p.stage`,
    z.object({ id: big, stage: z.string(), legs: z.string().nullable(), amount: big, fee: big, memberId: z.number().nullable() }),
  );
  const accountOf = await memberCreditAccounts(db);
  const unexpected = moves.filter((row) => {
    // A withdrawal of no member returns a held top-up to its sender: it leaves held_top_ups.
    const member = row.memberId === null ? systemAccountId('CREDIT', 'held_top_ups') : accountOf.get(row.memberId);
    const reserve = [`withdraw:${member}>3:${row.amount}`, ...(row.fee > 0n ? [`fee:3>2:${row.fee}`] : [])];
    const expected: Record<string, string[]> = {
      posted: [...reserve, `payout:3>7:${row.amount - row.fee}`],
      voided: [...reserve, ...(row.fee > 0n ? [`fee:2>3:${row.fee}`] : []), `withdraw:3>${member}:${row.amount}`],
    };
    // (Withdrawals paid before the payer paid on chain left payable for issuance, 1.)
    const legacyPosted = [...reserve, `payout:3>1:${row.amount - row.fee}`].join(' ');
    const want = (expected[row.stage] ?? reserve).join(' ');
    return row.legs !== want && !(row.stage === 'posted' && row.legs === legacyPosted);
  });
  expect(unexpected).toEqual([]);
  // held_top_ups holds exactly the held top-ups still undecided: those credited to no member, less the released ones
  // and those a return (a withdrawal of no member) not voided took, each return for its top-up's amount.
  const held = await queryRows(
    db,
    sql`SELECT (SELECT coalesce(sum(t.amount), 0) FROM top_ups t WHERE t.member_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM top_up_releases r WHERE r.chain_id = t.chain_id AND r.tx_hash = t.tx_hash AND r.log_position = t.log_position)
            AND NOT EXISTS (SELECT 1 FROM withdrawals w JOIN ledger_pending p ON p.id = w.id
              WHERE w.top_up_tx_hash = t.tx_hash AND w.top_up_log_position = t.log_position AND p.stage <> 'voided')) AS undecided,
          (SELECT count(*) FROM withdrawals w LEFT JOIN top_ups t ON t.tx_hash = w.top_up_tx_hash AND t.log_position = w.top_up_log_position
            WHERE w.member_id IS NULL AND (t.amount IS DISTINCT FROM w.amount OR w.fee <> 0 OR t.member_id IS NOT NULL))::int AS "badReturns"`,
    z.object({ undecided: big, badReturns: z.number() }),
  );
  expect(held.map((row) => [row.undecided, row.badReturns])).toEqual([[BigInt(await systemBalance(db, systemAccountId('CREDIT', 'held_top_ups'))), 0]]);
  // Every share-pool payout is one plan row per pool and day; its transfers are exactly what the plan says less the
  // shares it has still to pay, and each plan's `remaining` counts those shares.
  const payouts = await queryRows(
    db,
    sql`SELECT (SELECT coalesce(sum(paid), 0) FROM share_pool_payouts) - (SELECT coalesce(sum(amount), 0) FROM share_pool_shares) AS recorded,
          (SELECT coalesce(sum(holders - remaining), 0) FROM share_pool_payouts)::int AS holders,
          (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE type = 'distribution') AS moved,
          (SELECT count(*) FROM ledger_transfers WHERE type = 'distribution')::int AS transfers,
          (SELECT count(*) FROM share_pool_payouts d WHERE d.remaining <> (SELECT count(*) FROM share_pool_shares s WHERE s.pool_id = d.pool_id AND s.day = d.day))::int AS "miscounted",
          (SELECT count(*) FROM share_pool_shares s WHERE NOT EXISTS (SELECT 1 FROM share_pool_payouts d WHERE d.pool_id = s.pool_id AND d.day = s.day))::int AS "unplanned"`,
    z.object({ recorded: big, holders: z.number(), moved: big, transfers: z.number(), miscounted: z.number(), unplanned: z.number() }),
  );
  expect(payouts.map((row) => [row.moved, row.transfers, row.miscounted, row.unplanned])).toEqual(payouts.map((row) => [row.recorded, row.holders, 0, 0]));
  // The sales account holds exactly the orders not cancelled (paid or shipped): one `order` transfer in for each
  // order, and one back out, its refund, for each cancelled one. Every seeded goods item's stock left plus what its
  // orders not cancelled took is the seeded stock.
  const salesId = systemAccountId('CREDIT', 'sales');
  const sales = await queryRows(
    db,
    sql`SELECT (SELECT coalesce(sum(amount), 0) FROM orders WHERE status <> 'cancelled') AS ordered,
          (SELECT count(*) + count(*) FILTER (WHERE status = 'cancelled') FROM orders)::int AS orders,
          (SELECT coalesce(sum(CASE WHEN credit_account_id = ${salesId} THEN amount ELSE -amount END), 0) FROM ledger_transfers
            WHERE type = 'order' AND ${salesId} IN (credit_account_id, debit_account_id)) AS moved,
          (SELECT count(*) FROM ledger_transfers WHERE type = 'order')::int AS transfers`,
    z.object({ ordered: big, orders: z.number(), moved: big, transfers: z.number() }),
  );
  expect(sales.map((row) => [row.moved, row.transfers])).toEqual(sales.map((row) => [row.ordered, row.orders]));
  // Each cancelled order's refund is one transfer of its amount, and only a cancelled order has one.
  const refunds = await queryRows(
    db,
    sql`SELECT o.id, o.status, o.amount, (SELECT count(*) FROM ledger_transfers t WHERE t.memo = 'refund:' || o.id AND t.amount = o.amount)::int AS refunds
        FROM orders o WHERE (o.status = 'cancelled') <> ((SELECT count(*) FROM ledger_transfers t WHERE t.memo = 'refund:' || o.id AND t.amount = o.amount) = 1)`,
    z.object({ id: big, status: z.string(), amount: big, refunds: z.number() }),
  );
  expect(refunds).toEqual([]);
  // Every unit is the seed's, or an operator's audited stock change (opsGoodsPut: after − before), in stock or sold.
  const stock = await queryRows(
    db,
    sql`SELECT g.id, coalesce(c.available, 0) + coalesce((SELECT sum(quantity) FROM orders o WHERE o.goods_id = g.id AND o.status <> 'cancelled'), 0)
          - coalesce((SELECT sum((a.after->>'stock')::bigint - coalesce((a.before->>'stock')::bigint, 0)) FROM audit_log a
              WHERE a.action = 'opsGoodsPut' AND a.target = g.id), 0) AS total
        FROM goods g LEFT JOIN ledger_counters c ON c.key = 'stock:' || g.id ORDER BY g.id`,
    z.object({ id: z.string(), total: big }),
  );
  const seeded = new Map(SEED_GOODS.map((item) => [item.id, BigInt(item.stock)]));
  expect(stock.map((row) => [row.id, row.total])).toEqual(stock.map((row) => [row.id, seeded.get(row.id) ?? 0n]));
}

/** Runs `act` and asserts that no ledger, withdrawal or idempotency row changed. */
export async function expectNoMoneyMoved<T>(db: Db, act: () => Promise<T>): Promise<T> {
  const snapshot = async () =>
    JSON.stringify(
      await queryRows(
        db,
        sql`SELECT (SELECT count(*) FROM ledger_entries)::int AS entries, (SELECT count(*) FROM ledger_transfers)::int AS transfers,
              (SELECT count(*) FROM withdrawals)::int AS withdrawals, (SELECT count(*) FROM ledger_accounts)::int AS accounts,
              (SELECT coalesce(sum(balance), 0)::text FROM ledger_accounts) AS balances,
              (SELECT string_agg(stage, ',' ORDER BY id) FROM ledger_pending) AS statuses,
              (SELECT count(*) FROM orders)::int AS orders, (SELECT coalesce(sum(available), 0)::text FROM ledger_counters) AS counters`,
        z.record(z.string(), z.unknown()),
      ),
    );
  const before = await snapshot();
  const result = await act();
  expect(await snapshot()).toBe(before);
  await expectBooksBalanced(db);
  return result;
}
