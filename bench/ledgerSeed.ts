/**
 * A long ledger for the scale bench, written set-based (no engine request per movement) and consistent as the engine
 * would leave it: every transfer between two accounts of one asset, every member entry with the balance before and
 * after it and the account's version, every kept balance the last entry's, so the books check holds.
 *
 * The history is shaped so each entry's balances follow from its position alone (no running sum over 50,000,000 rows):
 * - every member is granted 1,000 CREDIT and 1 to 99 WPOS from issuance;
 * - then `rounds` rounds of a ring: in round r every member (in account order) sends x_r CREDIT to the next one, the
 *   last to the first, so each account is back at its balance after each round (x_r = 1 to 7 CREDIT);
 * - then the hub (one member: the bench's root) receives `hubEntries` rewards of one minor unit, a member whose
 *   records are deep.
 * The entries' secondary index is dropped during the load and built once after it (PostgreSQL's own advice for bulk
 * loads); its definition is the migrations'.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../server/db/client';
import { systemAccountId } from '../server/ledger/accounts';

/** Each member's first CREDIT: 1,000. */
const GRANT = 1_000_000_000n;

export interface LedgerHistory {
  /** Entries written. */
  entries: number;
  transfers: number;
  /** Member accounts per asset. */
  accounts: number;
  rounds: number;
}

const countRow = z.object({ n: z.number() });

/**
 * Writes the history for every member of the database at once.
 *
 * @param db - database handle (PostgreSQL)
 * @param options - the ring's rounds, the hub's member id and its entries
 * @returns what was written
 * @example
 * const written = await addLedgerHistory(db, { rounds: 23, hubMemberId: rootId, hubEntries: 2_000_000 });
 */
export async function addLedgerHistory(db: Db, options: { rounds: number; hubMemberId: number; hubEntries: number }): Promise<LedgerHistory> {
  const { rounds, hubEntries } = options;
  const creditIssuance = systemAccountId('CREDIT', 'issuance');
  const wposIssuance = systemAccountId('WPOS', 'issuance');
  await db.execute(sql`INSERT INTO ledger_accounts (asset, kind, member_id) SELECT a.asset, 'member', m.id FROM members m CROSS JOIN (VALUES ('CREDIT'), ('WPOS')) AS a (asset) ON CONFLICT DO NOTHING`);
  // Each asset's member accounts numbered 0..n-1 in id order: an account's place in the ring.
  for (const asset of ['CREDIT', 'WPOS'] as const) {
    const table = sql.identifier(`seed_${asset.toLowerCase()}`);
    await db.execute(sql`DROP TABLE IF EXISTS ${table}`);
    await db.execute(
      sql`CREATE UNLOGGED TABLE ${table} AS SELECT (row_number() OVER (ORDER BY id) - 1)::bigint AS k, id, member_id, balance, version
          FROM ledger_accounts WHERE asset = ${asset} AND member_id IS NOT NULL`,
    );
    await db.execute(sql`ALTER TABLE ${table} ADD PRIMARY KEY (k)`);
  }
  const [counted] = await queryRows(db, sql`SELECT count(*)::int AS n FROM seed_credit`, countRow);
  const n = counted?.n ?? 0;
  const [hub] = await queryRows(db, sql`SELECT k::int AS n FROM seed_credit WHERE member_id = ${options.hubMemberId}::int`, countRow);
  if (n < 2 || hub === undefined) throw new Error('the ledger history needs at least two members and the hub');
  const transfers = 2 * n + rounds * n + hubEntries;
  const entries = 2 * n + 2 * rounds * n + hubEntries;
  // Ids drawn as one block from each sequence: the rows' order is the history's.
  const [ids] = await queryRows(
    db,
    sql`SELECT setval(pg_get_serial_sequence('ledger_transfers', 'id'), nextval(pg_get_serial_sequence('ledger_transfers', 'id')) + ${transfers}::bigint)::text AS t,
          setval(pg_get_serial_sequence('ledger_entries', 'id'), nextval(pg_get_serial_sequence('ledger_entries', 'id')) + ${entries}::bigint)::text AS e`,
    z.object({ t: z.string(), e: z.string() }),
  );
  // The block's first ids (setval returned the last).
  const tBase = BigInt(ids?.t ?? '0') - BigInt(transfers);
  const eBase = BigInt(ids?.e ?? '0') - BigInt(entries);
  const t = (offset: bigint) => sql.raw(`${(tBase + offset).toString()}`);
  const e = (offset: bigint) => sql.raw(`${(eBase + offset).toString()}`);
  const N = sql.raw(String(n));
  const R = sql.raw(String(rounds));
  // The history runs over the past rounds + 2 days, a round a day.
  const day = (offset: SQL) => sql`now() - (${R} + 2 - ${offset}) * interval '1 day'`;
  const grantWpos = sql`((k % 99) + 1) * 1000000`;
  const x = sql`(1 + r % 7) * 1000000`;

  await db.execute(sql`DROP INDEX ledger_entries_account_idx`);
  // Grants: transfers 0..n-1 (CREDIT), n..2n-1 (WPOS); entries the same.
  await db.execute(sql`INSERT INTO ledger_transfers (id, asset, type, debit_account_id, credit_account_id, amount, created_at) OVERRIDING SYSTEM VALUE
    SELECT ${t(0n)} + k, 'CREDIT', 'reward', ${creditIssuance}::int, id, ${GRANT.toString()}::bigint, ${day(sql`0`)} FROM seed_credit
    UNION ALL SELECT ${t(0n)} + ${N} + k, 'WPOS', 'reward', ${wposIssuance}::int, id, ${grantWpos}, ${day(sql`0`)} FROM seed_wpos`);
  await db.execute(sql`INSERT INTO ledger_entries (id, transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at) OVERRIDING SYSTEM VALUE
    SELECT ${e(0n)} + k, ${t(0n)} + k, id, 'CREDIT', ${GRANT.toString()}::bigint, balance, balance + ${GRANT.toString()}::bigint, version + 1, ${day(sql`0`)} FROM seed_credit
    UNION ALL SELECT ${e(0n)} + ${N} + k, ${t(0n)} + ${N} + k, id, 'WPOS', ${grantWpos}, balance, balance + ${grantWpos}, version + 1, ${day(sql`0`)} FROM seed_wpos`);
  // The ring: transfer (r, k) from account k to account k + 1 (the last to the first), id 2n + (r - 1) n + k; its debit
  // entry 2n + 2((r - 1) n + k), its credit entry one after. Account k > 0 receives (from k - 1) before it sends, so in
  // round r its version goes to v + 2r then v + 2r + 1 and its balance up by x_r then back; account 0 sends first.
  const ring = sql`${t(0n)} + 2 * ${N} + (r - 1) * ${N} + a.k`;
  for (let r = 1; r <= rounds; r++) {
    const round = sql.raw(String(r));
    await db.execute(sql`INSERT INTO ledger_transfers (id, asset, type, debit_account_id, credit_account_id, amount, created_at) OVERRIDING SYSTEM VALUE
      SELECT ${ring}, 'CREDIT', 'transfer', a.id, b.id, ${x}, ${day(sql`r`)}
      FROM (SELECT ${round}::bigint AS r) AS rr, seed_credit a JOIN seed_credit b ON b.k = (a.k + 1) % ${N}`);
    await db.execute(sql`INSERT INTO ledger_entries (id, transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at) OVERRIDING SYSTEM VALUE
      SELECT ${e(0n)} + 2 * ${N} + 2 * ((r - 1) * ${N} + a.k), ${ring}, a.id, 'CREDIT', -${x},
        a.balance + ${GRANT.toString()}::bigint + CASE WHEN a.k = 0 THEN 0 ELSE ${x} END,
        a.balance + ${GRANT.toString()}::bigint + CASE WHEN a.k = 0 THEN -${x} ELSE 0 END,
        a.version + 1 + 2 * r + CASE WHEN a.k = 0 THEN -1 ELSE 0 END, ${day(sql`r`)}
      FROM (SELECT ${round}::bigint AS r) AS rr, seed_credit a
      UNION ALL
      SELECT ${e(0n)} + 2 * ${N} + 2 * ((r - 1) * ${N} + a.k) + 1, ${ring}, b.id, 'CREDIT', ${x},
        b.balance + ${GRANT.toString()}::bigint + CASE WHEN b.k = 0 THEN -${x} ELSE 0 END,
        b.balance + ${GRANT.toString()}::bigint + CASE WHEN b.k = 0 THEN 0 ELSE ${x} END,
        b.version + 1 + 2 * r + CASE WHEN b.k = 0 THEN 0 ELSE -1 END, ${day(sql`r`)}
      FROM (SELECT ${round}::bigint AS r) AS rr, seed_credit a JOIN seed_credit b ON b.k = (a.k + 1) % ${N}`);
  }
  // The hub's rewards of one minor unit each, after the ring.
  const hubFirst = sql`${t(0n)} + 2 * ${N} + ${R} * ${N}`;
  const hubEntry = sql`${e(0n)} + 2 * ${N} + 2 * ${R} * ${N}`;
  await db.execute(sql`INSERT INTO ledger_transfers (id, asset, type, debit_account_id, credit_account_id, amount, created_at) OVERRIDING SYSTEM VALUE
    SELECT ${hubFirst} + j - 1, 'CREDIT', 'reward', ${creditIssuance}::int, h.id, 1, now() - interval '1 day' + j * interval '1 millisecond'
    FROM seed_credit h, generate_series(1, ${hubEntries}::bigint) AS j WHERE h.member_id = ${options.hubMemberId}::int`);
  await db.execute(sql`INSERT INTO ledger_entries (id, transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at) OVERRIDING SYSTEM VALUE
    SELECT ${hubEntry} + j - 1, ${hubFirst} + j - 1, h.id, 'CREDIT', 1, h.balance + ${GRANT.toString()}::bigint + j - 1, h.balance + ${GRANT.toString()}::bigint + j,
      h.version + 1 + 2 * ${R} + j, now() - interval '1 day' + j * interval '1 millisecond'
    FROM seed_credit h, generate_series(1, ${hubEntries}::bigint) AS j WHERE h.member_id = ${options.hubMemberId}::int`);
  // Each account's kept balance and version: its last entry's.
  await db.execute(sql`UPDATE ledger_accounts a SET balance = s.balance + ${GRANT.toString()}::bigint + CASE WHEN s.member_id = ${options.hubMemberId}::int THEN ${hubEntries}::bigint ELSE 0 END,
      version = s.version + 1 + 2 * ${R} + CASE WHEN s.member_id = ${options.hubMemberId}::int THEN ${hubEntries}::bigint ELSE 0 END
    FROM seed_credit s WHERE a.id = s.id`);
  await db.execute(sql`UPDATE ledger_accounts a SET balance = s.balance + ((s.k % 99) + 1) * 1000000, version = s.version + 1 FROM seed_wpos s WHERE a.id = s.id`);
  await db.execute(sql`CREATE INDEX ledger_entries_account_idx ON ledger_entries USING btree (account_id, id)`);
  await db.execute(sql`DROP TABLE seed_credit, seed_wpos`);
  await db.execute(sql`ANALYZE ledger_transfers`);
  await db.execute(sql`ANALYZE ledger_entries`);
  await db.execute(sql`VACUUM ANALYZE ledger_accounts`);
  return { entries, transfers, accounts: n, rounds };
}
