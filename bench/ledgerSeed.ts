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
 * @param options - the ring's rounds, the hub's member id and its entries, and where each step's time is told
 * @returns what was written
 * @example
 * const written = await addLedgerHistory(db, { rounds: 23, hubMemberId: rootId, hubEntries: 2_000_000 });
 */
export async function addLedgerHistory(
  db: Db,
  options: { rounds: number; hubMemberId: number; hubEntries: number; onStep?: (step: string, ms: number) => void },
): Promise<LedgerHistory> {
  const { rounds, hubEntries } = options;
  let stepStarted = performance.now();
  const step = (name: string) => {
    options.onStep?.(name, performance.now() - stepStarted);
    stepStarted = performance.now();
  };
  const creditIssuance = systemAccountId('CREDIT', 'issuance');
  const wposIssuance = systemAccountId('WPOS', 'issuance');
  // Each asset's member accounts numbered 0..n-1 in id order (an account's place in the ring), with the balance and
  // version before the history; the accounts still to open get their ids now and their rows, final, at the end.
  for (const asset of ['CREDIT', 'WPOS'] as const) {
    const table = sql.identifier(`seed_${asset.toLowerCase()}`);
    await db.execute(sql`DROP TABLE IF EXISTS ${table}`);
    await db.execute(
      sql`CREATE UNLOGGED TABLE ${table} AS SELECT (row_number() OVER (ORDER BY id) - 1)::bigint AS k, id, member_id, balance, version, existing FROM (
            SELECT id, member_id, balance, version, true AS existing FROM ledger_accounts WHERE asset = ${asset} AND member_id IS NOT NULL
            UNION ALL
            SELECT nextval(pg_get_serial_sequence('ledger_accounts', 'id'))::int, m.id, 0::bigint, 0::bigint, false FROM members m
              WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.member_id = m.id AND a.asset = ${asset})) AS s`,
    );
    await db.execute(sql`ALTER TABLE ${table} ADD PRIMARY KEY (k)`);
  }
  step('accounts');
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
  step('grants');
  // The ring: transfer (r, k) from account k to account k + 1 (the last to the first), id 2n + (r - 1) n + k; its debit
  // entry 2n + 2((r - 1) n + k), its credit entry one after. Account k > 0 receives (from k - 1) before it sends, so in
  // round r its version goes to v + 2r then v + 2r + 1 and its balance up by x_r then back; account 0 sends first.
  const ring = sql`${t(0n)} + 2 * ${N} + (r - 1) * ${N} + a.k`;
  const ringRound = async (r: number) => {
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
  };
  // Two rounds at a time, on two connections: the database's two cores, each writing its own rows.
  for (let r = 1; r <= rounds; r += 2) {
    await Promise.all(r + 1 <= rounds ? [ringRound(r), ringRound(r + 1)] : [ringRound(r)]);
    step(`ring rounds ${r}-${Math.min(r + 1, rounds)}`);
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
  step('hub');
  // Each account's kept balance and version: its last entry's. New accounts are written with them, the others updated.
  const creditBalance = sql`s.balance + ${GRANT.toString()}::bigint + CASE WHEN s.member_id = ${options.hubMemberId}::int THEN ${hubEntries}::bigint ELSE 0 END`;
  const creditVersion = sql`s.version + 1 + 2 * ${R} + CASE WHEN s.member_id = ${options.hubMemberId}::int THEN ${hubEntries}::bigint ELSE 0 END`;
  const wposBalance = sql`s.balance + ((s.k % 99) + 1) * 1000000`;
  await db.execute(sql`INSERT INTO ledger_accounts (id, asset, kind, member_id, balance, version)
    SELECT s.id, 'CREDIT', 'member', s.member_id, ${creditBalance}, ${creditVersion} FROM seed_credit s WHERE NOT s.existing
    UNION ALL SELECT s.id, 'WPOS', 'member', s.member_id, ${wposBalance}, s.version + 1 FROM seed_wpos s WHERE NOT s.existing`);
  await db.execute(sql`UPDATE ledger_accounts a SET balance = ${creditBalance}, version = ${creditVersion} FROM seed_credit s WHERE a.id = s.id AND s.existing`);
  await db.execute(sql`UPDATE ledger_accounts a SET balance = ${wposBalance}, version = s.version + 1 FROM seed_wpos s WHERE a.id = s.id AND s.existing`);
  step('balances');
  await db.execute(sql`CREATE INDEX ledger_entries_account_idx ON ledger_entries USING btree (account_id, id)`);
  step('index');
  await db.execute(sql`DROP TABLE seed_credit, seed_wpos`);
  // What autovacuum would do soon after a load this size (it would then run during the measurements): the visibility
  // map that index-only scans read, and the planner's statistics.
  await db.execute(sql`VACUUM ANALYZE ledger_transfers, ledger_entries, ledger_accounts`);
  // And the load's dirty pages written now, not by the checkpointer during the measurements.
  await db.execute(sql`CHECKPOINT`);
  step('vacuum');
  return { entries, transfers, accounts: n, rounds };
}
