-- The ledger engine (docs/decisions/0014-ledger-engine.md): every money flow's requests go through ledger_post.
-- This file is the engine's one definition. `npm run engine` writes it into a drizzle migration of its own, which
-- drops every function of the engine and creates them again as written here, so the migrations journal says which
-- version a database runs (docs/decisions/0021-generic-records-and-engine-migrations.md); `npm run engine:check`
-- fails while this file and the latest engine migration differ. It names no business table: the record template
-- in ledger_records is repeated for each table of server/ledger/recordTables.ts.
--
-- A batch of requests is four JSON arrays of flat records (server/ledger/engine.ts builds them), each row keyed by
-- its request's `ord`:
--   items:    ord, now, scope, endpoint, request_id, body_hash (no scope: no at-most-once key), reject, short_code,
--             limit_code, counter_code, record_table, record_row, record_id_sequence (the sequence that numbers the
--             record, if any), result, fill_id ('record' | 'transfer' | 'entry'),
--             fill_id_key (the result's field it fills, `id` unless said), fill_balance, debit_frozen (an operator's
--             deduction may debit a frozen member), and for a two-phase transfer
--             (TigerBeetle's pending, post, void; ledger_pending) either pending_reserve (the first stage of the
--             pending transfer this request's legs and limits become: pending_held, pending_limits keep them) or
--             pending_id, pending_from (the stages it may be in, comma-separated), pending_to (the stage it moves to;
--             `voided` gives back the legs and limits it holds) and pending_code (the refusal when it is elsewhere)
--   legs:     ord, n, asset, type, amount, fromMember | fromSystem, toMember | toSystem, memo;
--             or a fan leg (a payout): fromSystem, asset, type, memo and fanFrom, fanCount, which name the 1-based slice
--             of the two arrays p_fan_to (members) and p_fan_amount that it pays, as legs n, n + 1, ... (arrays, not
--             JSON: 100,000 legs as JSON took a second to send and parse)
--   limits:   ord, memberId, name, day, amount, cap
--   counters: ord, key, amount (what the request draws from the counter, e.g. units of a goods item's stock)
-- A request's legs are linked: all of them move or none. A draw needs the counter to hold it, a debit of a member
-- account needs the member not frozen (member_freezes; unless the item says debit_frozen: an operator's deduction)
-- and the balance to cover it, a debit of a funded system account (ledger_accounts.funded: the share pools', the
-- exchange's CREDIT) needs its kept balance to cover it, a limit needs its day's total plus the amount to stay
-- within the cap; otherwise the request is refused with its counter_code (3002), 3008 (frozen), short_code (3001)
-- or limit_code (3002), checked in that order, and nothing of it is written but its outcome. `reject` is a refusal the
-- flow decided from the request alone (an amount outside the limits, an unknown member): it is stored like any
-- other outcome, after the key is checked, so a repeat of an accepted request still gets its first answer.
--
-- The records are read with jsonb_to_recordset, one pass per statement, and subsets of the batch travel as arrays of
-- ords: on PGlite the JSON work per statement was most of a batch's cost.

-- Minor units as the API's decimal string (api-schema/amount.ts formatMinor): the one amount function the SQL
-- keeps, for the results it stores with the money.
CREATE OR REPLACE FUNCTION money_text(p_minor bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_minor < 0 THEN '-' ELSE '' END || (abs(p_minor) / 1000000)::text
    || coalesce('.' || nullif(rtrim(lpad((abs(p_minor) % 1000000)::text, 6, '0'), '0'), ''), '')
$$;--> statement-breakpoint

-- The advisory lock key of a request id (scope, endpoint, id): held by the transaction that runs the request.
CREATE OR REPLACE FUNCTION ledger_key_lock(p_scope text, p_endpoint text, p_request_id text) RETURNS bigint
  LANGUAGE sql IMMUTABLE AS $$
  SELECT hashtextextended(p_scope || chr(31) || p_endpoint || chr(31) || p_request_id, 4361)
$$;--> statement-breakpoint

-- Every leg of the requests `p_ords`, a fan leg as one row per member it pays, in one pass over the legs: an
-- ordinary leg has no slice (the unnest of NULL gives no row, and the left join keeps the leg as it is).
CREATE OR REPLACE FUNCTION ledger_leg_rows(p_legs jsonb, p_fan_to integer[], p_fan_amount bigint[], p_ords integer[])
  RETURNS TABLE (ord integer, n integer, asset text, type text, amount bigint, memo text, "fromMember" integer,
    "fromSystem" integer, "toMember" integer, "toSystem" integer)
  LANGUAGE sql STABLE AS $$
  SELECT l.ord, l.n + coalesce(f.i::integer, 1) - 1, l.asset, l.type, coalesce(f.amount, l.amount), l.memo, l."fromMember",
    l."fromSystem", coalesce(f.member_id, l."toMember"), l."toSystem"
  FROM jsonb_to_recordset(p_legs) AS l(ord integer, n integer, asset text, type text, amount bigint, memo text,
    "fromMember" integer, "fromSystem" integer, "toMember" integer, "toSystem" integer, "fanFrom" integer, "fanCount" integer)
  LEFT JOIN LATERAL unnest(p_fan_to[l."fanFrom":l."fanFrom" + l."fanCount" - 1], p_fan_amount[l."fanFrom":l."fanFrom" + l."fanCount" - 1])
    WITH ORDINALITY AS f(member_id, amount, i) ON true
  -- A fan leg that pays no one is no leg.
  WHERE l.ord = ANY (p_ords) AND (l."fanCount" IS NULL OR f.i IS NOT NULL)
$$;--> statement-breakpoint

-- The member accounts the legs of the requests `p_ords` name, on either side. (Filtering by ord here, rather than
-- building a jsonb of the chosen legs first: aggregating a payout's 100,000 legs again took a second.)
CREATE OR REPLACE FUNCTION ledger_member_accounts(p_legs jsonb, p_fan_to integer[], p_fan_amount bigint[], p_ords integer[])
  RETURNS TABLE (member_id integer, asset text)
  LANGUAGE sql STABLE AS $$
  SELECT DISTINCT s.member_id, l.asset
  FROM ledger_leg_rows(p_legs, p_fan_to, p_fan_amount, p_ords) l
  CROSS JOIN LATERAL (VALUES (l."fromMember"), (l."toMember")) AS s(member_id)
  WHERE s.member_id IS NOT NULL
$$;--> statement-breakpoint

-- What each request of `p_ords` takes from each funded system account, net of what the same request puts into it (a
-- request's legs move together: a withdrawal's amount goes to payable and its fee on from there), where it takes more
-- than it puts (a fan leg: the sum of its slice).
CREATE OR REPLACE FUNCTION ledger_funded_debits(p_legs jsonb, p_fan_amount bigint[], p_ords integer[])
  RETURNS TABLE (ord integer, account_id integer, amount bigint)
  LANGUAGE sql STABLE AS $$
  SELECT s.ord, s.account_id, sum(s.amount)::bigint
  FROM (
    SELECT l.ord, x.account_id, x.sign * CASE WHEN l."fanCount" IS NULL THEN l.amount
      ELSE (SELECT coalesce(sum(f.amount), 0)::bigint FROM unnest(p_fan_amount[l."fanFrom":l."fanFrom" + l."fanCount" - 1]) AS f(amount)) END AS amount
    FROM jsonb_to_recordset(p_legs) AS l(ord integer, amount bigint, "fromSystem" integer, "toSystem" integer, "fanFrom" integer, "fanCount" integer)
    CROSS JOIN LATERAL (VALUES (l."fromSystem", 1), (l."toSystem", -1)) AS x(account_id, sign)
    WHERE l.ord = ANY (p_ords) AND x.account_id IS NOT NULL
      AND coalesce((SELECT a.funded FROM ledger_accounts a WHERE a.id = x.account_id LIMIT 1), false)
  ) s
  GROUP BY s.ord, s.account_id
  HAVING sum(s.amount) > 0
$$;--> statement-breakpoint

-- The answers of requests whose id has a stored outcome: that outcome, or 3003 for another body.
CREATE OR REPLACE FUNCTION ledger_stored_answers(p_items jsonb, p_ords integer[])
  RETURNS TABLE (ord integer, code integer, result jsonb, set_based boolean) LANGUAGE sql STABLE AS $$
  SELECT i.ord, CASE WHEN k.body_hash = i.body_hash THEN k.code ELSE 3003 END, CASE WHEN k.body_hash = i.body_hash THEN k.result END, false
  FROM jsonb_to_recordset(p_items) AS i(ord integer, scope text, endpoint text, request_id text, body_hash text)
  CROSS JOIN LATERAL (
    SELECT k.body_hash, k.code, k.result FROM idempotency_keys k
    WHERE k.scope = i.scope AND k.endpoint = i.endpoint AND k.request_id = i.request_id LIMIT 1
  ) k
  WHERE i.ord = ANY (p_ords)
$$;--> statement-breakpoint

-- What refuses one request against the counters, balances and totals as they are now: its counter code when a
-- counter it draws from is missing or holds less, its short code when a debited member account is missing or does
-- not cover the request's debits of it, its limit code when a limit would pass its cap, else 0. (Scalar subqueries
-- with LIMIT: always an index lookup, never a hashed subplan that reads the table.)
CREATE OR REPLACE FUNCTION ledger_refusal(p_legs jsonb, p_fan_amount bigint[], p_limits jsonb, p_counters jsonb, p_ord integer,
  p_short_code integer, p_limit_code integer, p_counter_code integer, p_debit_frozen boolean)
  RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN EXISTS (
      SELECT 1 FROM (
        SELECT x.key, sum(x.amount) AS amount FROM jsonb_to_recordset(p_counters) AS x(ord integer, key text, amount bigint)
        WHERE x.ord = p_ord GROUP BY 1
      ) d
      WHERE coalesce((SELECT c.available FROM ledger_counters c WHERE c.key = d.key LIMIT 1), -1) < d.amount
    ) THEN p_counter_code
    WHEN NOT coalesce(p_debit_frozen, false) AND EXISTS (
      SELECT 1 FROM jsonb_to_recordset(p_legs) AS l(ord integer, "fromMember" integer)
      WHERE l.ord = p_ord AND l."fromMember" IS NOT NULL
        AND (SELECT true FROM member_freezes f WHERE f.member_id = l."fromMember" LIMIT 1)
    ) THEN 3008
    WHEN EXISTS (
      SELECT 1 FROM ledger_funded_debits(p_legs, p_fan_amount, ARRAY[p_ord]) d GROUP BY d.account_id
      HAVING sum(d.amount) > coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.id = d.account_id LIMIT 1), -1)
    ) THEN p_short_code
    WHEN EXISTS (
      SELECT 1 FROM (
        SELECT l."fromMember" AS member_id, l.asset, sum(l.amount) AS amount
        FROM jsonb_to_recordset(p_legs) AS l(ord integer, asset text, amount bigint, "fromMember" integer)
        WHERE l.ord = p_ord AND l."fromMember" IS NOT NULL GROUP BY 1, 2
      ) d
      WHERE coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.member_id = d.member_id AND a.asset = d.asset LIMIT 1), -1) < d.amount
    ) THEN p_short_code
    WHEN EXISTS (
      SELECT 1 FROM jsonb_to_recordset(p_limits) AS x(ord integer, "memberId" integer, name text, day date, amount bigint, cap bigint)
      -- A give-back (a negative amount: a failed withdrawal's) is never refused, whatever the day's total.
      WHERE x.ord = p_ord AND x.amount > 0
        AND coalesce((SELECT t.total FROM ledger_limits t WHERE t.member_id = x."memberId" AND t.name = x.name AND t.day = x.day LIMIT 1), 0)
          + x.amount > x.cap
    ) THEN p_limit_code
    ELSE 0 END
$$;--> statement-breakpoint

-- Writes the records of one business table, `p_rows` (a JSON array of its rows, by column name, `id` included when
-- the table has one): the part between BEGIN and END RECORD TABLE is repeated for each table of recordTables.ts,
-- with __table__ its name (npm run engine). Each table's INSERT is static SQL, so PL/pgSQL keeps its plan, where a
-- dynamic INSERT was planned again for every batch (0.7 ms of a batch's lock time on PostgreSQL); and it runs only
-- for a batch that writes that table (an INSERT of no rows in the write statement still cost about 0.1 ms of a
-- PGlite batch each: its table and indexes opened).
CREATE OR REPLACE FUNCTION ledger_records(p_table text, p_rows jsonb) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  -- BEGIN RECORD TABLE
  IF p_table = '__table__' THEN
    INSERT INTO __table__ OVERRIDING SYSTEM VALUE SELECT r.* FROM jsonb_populate_recordset(NULL::__table__, p_rows) r;
    RETURN jsonb_array_length(p_rows);
  END IF;
  -- END RECORD TABLE
  RAISE EXCEPTION 'ledger_records: % is not a record table (server/ledger/recordTables.ts)', p_table;
END $$;--> statement-breakpoint

-- Writes the requests `p_ords`, known to fit, in one statement for all of them: business rows, account balances,
-- the transfers, the member entries (each with the running balance and version that one by one would give), the
-- limits' totals and the stored outcomes. Ids are drawn in request and leg order. The accounts are locked already.
-- work_mem: a payout's 100,000 legs sort in memory (with the default 4 MB they spilled to disk).
CREATE OR REPLACE FUNCTION ledger_apply(p_items jsonb, p_legs jsonb, p_fan_to integer[], p_fan_amount bigint[], p_limits jsonb,
  p_counters jsonb, p_ords integer[], p_funded integer[])
  RETURNS TABLE (ord integer, result jsonb)
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET jit = off SET work_mem = '64MB' AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH item AS MATERIALIZED (
    -- Record ids drawn in request order (the sorted subquery is projected in its order): a reserving request's
    -- record has its pending transfer's id, another its table's sequence's next (recordTables.ts), if it has one.
    SELECT q.*, CASE WHEN q.record_id IS NULL THEN q.record_row ELSE q.record_row || jsonb_build_object('id', q.record_id) END AS record
    FROM (
      SELECT p.*, coalesce(p.pending_new, nextval(p.record_id_sequence::regclass)) AS record_id FROM (
        SELECT o.*, CASE WHEN o.pending_reserve IS NOT NULL THEN nextval('ledger_pending_id_seq') END AS pending_new FROM (
          SELECT i.ord, i.now, i.scope, i.endpoint, i.request_id, i.body_hash, i.result, i.fill_id, i.fill_id_key, i.fill_balance, i.record_table,
            i.record_row, i.record_id_sequence, i.pending_reserve, i.pending_held, i.pending_limits, i.pending_id, i.pending_to
          FROM jsonb_to_recordset(p_items) AS i(ord integer, now timestamptz, scope text, endpoint text, request_id text, body_hash text,
            result jsonb, fill_id text, fill_id_key text, fill_balance boolean, record_table text, record_row jsonb, record_id_sequence text,
            pending_reserve text, pending_held jsonb, pending_limits jsonb, pending_id bigint, pending_to text)
          WHERE i.ord = ANY (p_ords)
          ORDER BY i.ord
        ) o
      ) p
    ) q
  ), pending_created AS (
    INSERT INTO ledger_pending (id, stage, legs, limits, created_at, updated_at)
    SELECT it.pending_new, it.pending_reserve, it.pending_held, it.pending_limits, it.now, it.now FROM item it WHERE it.pending_new IS NOT NULL
  ), pending_moved AS (
    UPDATE ledger_pending d SET stage = it.pending_to, updated_at = it.now FROM item it WHERE d.id = it.pending_id
  ), record AS MATERIALIZED (
    -- The records, in one call per table that the batch writes (ledger_records); a batch without any makes none.
    SELECT ledger_records(t.record_table, t.records) AS written
    FROM (SELECT it.record_table, jsonb_agg(it.record ORDER BY it.ord) AS records FROM item it WHERE it.record_table IS NOT NULL GROUP BY 1) t
  ), counter_drawn AS (
    UPDATE ledger_counters c SET available = c.available - d.amount
    FROM (
      SELECT x.key, sum(x.amount)::bigint AS amount FROM jsonb_to_recordset(p_counters) AS x(ord integer, key text, amount bigint)
      WHERE x.ord = ANY (p_ords) GROUP BY 1
    ) d
    WHERE c.key = d.key
  ), leg AS MATERIALIZED (
    -- Transfer ids drawn in request and leg order (the sorted subquery is projected in its order).
    SELECT o.*, nextval('ledger_transfers_id_seq') AS transfer_id FROM (
      SELECT l.ord, l.n, it.now, l.asset, l.type, l.amount, l.memo,
        coalesce(it.pending_new, it.pending_id) AS pending_id,
        coalesce(l."fromSystem", (SELECT a.id FROM ledger_accounts a WHERE a.member_id = l."fromMember" AND a.asset = l.asset LIMIT 1)) AS debit_id,
        coalesce(l."toSystem", (SELECT a.id FROM ledger_accounts a WHERE a.member_id = l."toMember" AND a.asset = l.asset LIMIT 1)) AS credit_id,
        l."fromMember" IS NOT NULL AS debit_member, l."toMember" IS NOT NULL AS credit_member
      FROM ledger_leg_rows(p_legs, p_fan_to, p_fan_amount, p_ords) l
      JOIN item it ON it.ord = l.ord
      ORDER BY l.ord, l.n
    ) o
  ), side AS MATERIALIZED (
    SELECT l.ord, l.n, l.now, l.asset, l.transfer_id, s.account_id, s.delta, s.k
    FROM leg l
    CROSS JOIN LATERAL (VALUES (l.debit_id, -l.amount, l.debit_member, 0), (l.credit_id, l.amount, l.credit_member, 1))
      AS s(account_id, delta, is_member, k)
    WHERE s.is_member
  ), running AS MATERIALIZED (
    -- Entry ids drawn in request, leg and side order, as the transfers'.
    SELECT o.*, nextval('ledger_entries_id_seq') AS entry_id FROM (
      SELECT s.*, (a.balance + sum(s.delta) OVER w)::bigint AS balance_after, a.version + row_number() OVER w AS version_after,
        row_number() OVER per_request = 1 AS first_of_request
      FROM side s
      CROSS JOIN LATERAL (SELECT a.balance, a.version FROM ledger_accounts a WHERE a.id = s.account_id) a
      WINDOW w AS (PARTITION BY s.account_id ORDER BY s.ord, s.n, s.k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
        per_request AS (PARTITION BY s.ord ORDER BY s.n, s.k)
      ORDER BY s.ord, s.n, s.k
    ) o
  ), funded_delta AS MATERIALIZED (
    -- A funded system account keeps its balance (no entries, no version): what the legs put in and took out.
    SELECT s.account_id, sum(s.delta)::bigint AS delta
    FROM leg l
    CROSS JOIN LATERAL (VALUES (l.debit_id, -l.amount, l.debit_member), (l.credit_id, l.amount, l.credit_member)) AS s(account_id, delta, is_member)
    WHERE NOT s.is_member AND s.account_id = ANY (p_funded)
    GROUP BY s.account_id
  ), account AS (
    UPDATE ledger_accounts a SET balance = a.balance + t.delta, version = a.version + t.moves
    FROM (
      SELECT s.account_id, sum(s.delta)::bigint AS delta, count(*) AS moves FROM side s GROUP BY s.account_id
      UNION ALL
      SELECT f.account_id, f.delta, 0 FROM funded_delta f
    ) t
    WHERE a.id = t.account_id
  ), transfer AS (
    INSERT INTO ledger_transfers (id, asset, type, debit_account_id, credit_account_id, amount, pending_id, memo, created_at)
      OVERRIDING SYSTEM VALUE
    SELECT l.transfer_id, l.asset, l.type, l.debit_id, l.credit_id, l.amount, l.pending_id, l.memo, l.now FROM leg l
  ), entry AS (
    INSERT INTO ledger_entries (id, transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at)
      OVERRIDING SYSTEM VALUE
    SELECT r.entry_id, r.transfer_id, r.account_id, r.asset, r.delta, r.balance_after - r.delta, r.balance_after, r.version_after, r.now
    FROM running r
  ), limit_sum AS MATERIALIZED (
    SELECT x."memberId" AS member_id, x.name, x.day, sum(x.amount)::bigint AS amount
    FROM jsonb_to_recordset(p_limits) AS x(ord integer, "memberId" integer, name text, day date, amount bigint)
    WHERE x.ord = ANY (p_ords)
    GROUP BY 1, 2, 3
  ), limit_added AS (
    INSERT INTO ledger_limits AS d (member_id, name, day, total)
    SELECT m.member_id, m.name, m.day, m.amount FROM limit_sum m WHERE m.amount >= 0 ORDER BY 1, 2, 3
    ON CONFLICT (member_id, name, day) DO UPDATE SET total = d.total + excluded.total
  ), limit_given_back AS (
    -- An UPDATE, not the upsert: the proposed row of an upsert must pass the CHECK (total >= 0) by itself. A day's
    -- total never goes below zero (a give-back of more than the day holds gives back what it holds).
    UPDATE ledger_limits d SET total = greatest(d.total + m.amount, 0) FROM limit_sum m
    WHERE m.amount < 0 AND d.member_id = m.member_id AND d.name = m.name AND d.day = m.day
  ), first_entry AS (
    -- (A window in `running`, whose rows are sorted by request already: a DISTINCT ON sorted a payout's 100,000 again.)
    SELECT r.ord, r.transfer_id, r.entry_id, r.balance_after FROM running r WHERE r.first_of_request
  ), answered AS MATERIALIZED (
    -- The result: the flow's fixed part and what only the write knows (fill), one jsonb_build_object each.
    SELECT it.ord, it.now, it.scope, it.endpoint, it.request_id, it.body_hash, CASE WHEN jsonb_typeof(it.result) = 'object' THEN
        it.result
        || CASE it.fill_id
             WHEN 'record' THEN jsonb_build_object(coalesce(it.fill_id_key, 'id'), it.record_id::text)
             WHEN 'transfer' THEN jsonb_build_object(coalesce(it.fill_id_key, 'id'), f.transfer_id::text)
             WHEN 'entry' THEN jsonb_build_object(coalesce(it.fill_id_key, 'id'), f.entry_id::text)
             ELSE '{}'::jsonb END
        || CASE WHEN it.fill_balance THEN jsonb_build_object('balanceAfter', money_text(f.balance_after)) ELSE '{}'::jsonb END
      END AS result
    FROM item it LEFT JOIN first_entry f ON f.ord = it.ord
  ), stored AS (
    INSERT INTO idempotency_keys (scope, endpoint, request_id, body_hash, code, result, created_at)
    SELECT a.scope, a.endpoint, a.request_id, a.body_hash, 0, a.result, a.now FROM answered a WHERE a.scope IS NOT NULL
  )
  -- (A plain CTE runs only when read: the one-time filter reads `record` before the first answer.)
  SELECT a.ord, a.result FROM answered a WHERE (SELECT count(*) FROM record) >= 0;
END $$;--> statement-breakpoint

-- Posts a batch of requests in the caller's transaction (a statement of its own commits alone) and answers one
-- outcome per request: its ord, code (0 or a refusal), result, and whether the set-based write answered it.
--   0. `p_config`, when given, is the app config value the requests were built from (the batcher keeps the config
--      between batches instead of reading it before each). When the row holds another value, the answer is one row
--      with ord -1 and nothing is done: the batcher reads the config and builds the batch again.
--   1. At most once: each request id's advisory lock (held elsewhere: 3005, the first is still running); an id
--      already stored answers its outcome (another body: 3003); a second request with an id new in this batch is
--      answered at the end from what the first stored. A flow's own refusal is stored as the outcome.
--   2. Every member account the remaining requests name is opened (existing members only, empty, in order) and
--      then locked in (member, asset) order, so two batches never wait for each other in opposite orders. Limits
--      are only ever touched under their member's account lock.
--   3. The rest in one statement where they surely fit: every debited account covers all the batch's debits of it
--      and its requests share one set of limits, every limit holds all of its requests, and every counter all the
--      batch's draws from it. The others one by one, in member order, each against what the earlier ones left
--      (ledger_refusal, then ledger_apply of one). Counters are locked after the accounts, in key order.
--   4. Two-phase transfers: a request that moves a pending transfer (pending_id) is refused with its pending_code
--      unless the pending transfer is in one of the stages pending_from names. The rows are locked after the
--      counters, in id order; a move is set-based when, locked, its pending transfer may leave its stage and no other
--      request of the batch moves it, else one by one. A move to `voided` has the reversal of the legs it holds as its
--      legs (in reverse order) and gives back its limits (a give-back never refused, never below zero).
CREATE OR REPLACE FUNCTION ledger_post(p_items jsonb, p_legs jsonb, p_fan_to integer[], p_fan_amount bigint[], p_limits jsonb,
  p_counters jsonb, p_config jsonb)
  RETURNS TABLE (ord integer, code integer, result jsonb, set_based boolean)
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET jit = off SET work_mem = '64MB' AS $$
#variable_conflict use_column
DECLARE
  v_busy integer[];
  v_stored integer[];
  v_repeats integer[];
  v_refused integer[];
  v_candidates integer[];
  v_accounts integer[];
  v_missing integer;
  v_opened boolean;
  v_fast integer[];
  v_slow integer[];
  v_ord integer;
  v_code integer;
  v_legs jsonb := p_legs;
  v_limits jsonb := p_limits;
  v_moves integer[];
  v_unsure_moves integer[] := '{}';
  v_funded integer[];
  v_takers integer[];
BEGIN
  IF p_config IS NOT NULL AND p_config IS DISTINCT FROM (SELECT c.value FROM app_config c WHERE c.id = 1) THEN
    RETURN QUERY SELECT -1, 0, NULL::jsonb, false;
    RETURN;
  END IF;

  -- 1. Request ids: the locks first, then (a statement of its own, with a snapshot taken after the locks) what is
  -- stored.
  SELECT coalesce(array_agg(i.ord) FILTER (WHERE NOT pg_try_advisory_xact_lock(ledger_key_lock(i.scope, i.endpoint, i.request_id))), '{}')
  INTO v_busy
  FROM jsonb_to_recordset(p_items) AS i(ord integer, scope text, endpoint text, request_id text)
  WHERE i.scope IS NOT NULL;
  -- One pass over the rest (each pass over the items parses their JSON again): what is stored, the repeats of an id
  -- new in this batch, the flows' own refusals, the candidates and, among them, the moves of pending transfers.
  SELECT coalesce(array_agg(k.ord) FILTER (WHERE k.stored), '{}'), coalesce(array_agg(k.ord) FILTER (WHERE k.repeat), '{}'),
    coalesce(array_agg(k.ord) FILTER (WHERE k.fresh AND k.reject IS NOT NULL), '{}'),
    coalesce(array_agg(k.ord) FILTER (WHERE k.fresh AND k.reject IS NULL), '{}'),
    coalesce(array_agg(k.ord) FILTER (WHERE k.fresh AND k.reject IS NULL AND k.pending_id IS NOT NULL), '{}')
  INTO v_stored, v_repeats, v_refused, v_candidates, v_moves
  FROM (
    SELECT s.ord, s.reject, s.pending_id, s.stored, NOT s.stored AND s.nth > 1 AS repeat, NOT s.stored AND s.nth = 1 AS fresh
    FROM (
      SELECT i.ord, i.reject, i.pending_id,
        i.scope IS NOT NULL
          AND (SELECT true FROM idempotency_keys k WHERE k.scope = i.scope AND k.endpoint = i.endpoint AND k.request_id = i.request_id LIMIT 1)
            IS NOT NULL AS stored,
        -- (Requests without a key are each their own.)
        CASE WHEN i.scope IS NULL THEN 1 ELSE row_number() OVER (PARTITION BY i.scope, i.endpoint, i.request_id ORDER BY i.ord) END AS nth
      FROM jsonb_to_recordset(p_items) AS i(ord integer, scope text, endpoint text, request_id text, reject integer, pending_id bigint)
      WHERE NOT (i.ord = ANY (v_busy))
    ) s
  ) k;
  IF cardinality(v_busy) > 0 THEN
    RETURN QUERY SELECT b.ord, 3005, NULL::jsonb, false FROM unnest(v_busy) AS b(ord);
  END IF;
  IF cardinality(v_stored) > 0 THEN
    RETURN QUERY SELECT * FROM ledger_stored_answers(p_items, v_stored);
  END IF;

  -- Moves of pending transfers; a void's legs and limits are what its pending transfer holds, reversed.
  IF cardinality(v_moves) > 0 THEN
    SELECT v_legs || coalesce(jsonb_agg(jsonb_build_object('ord', i.ord, 'n', jsonb_array_length(d.legs) - e.k, 'asset', e.l->'asset',
        'type', e.l->'type', 'amount', e.l->'amount', 'memo', e.l->'memo', 'fromMember', e.l->'toMember', 'fromSystem', e.l->'toSystem',
        'toMember', e.l->'fromMember', 'toSystem', e.l->'fromSystem')), '[]'::jsonb),
      v_limits || coalesce((
        SELECT jsonb_agg(jsonb_build_object('ord', i2.ord, 'memberId', x.l->'memberId', 'name', x.l->'name', 'day', x.l->'day',
          'amount', -(x.l->>'amount')::bigint, 'cap', 0))
        FROM jsonb_to_recordset(p_items) AS i2(ord integer, pending_id bigint, pending_to text)
        JOIN ledger_pending d2 ON d2.id = i2.pending_id CROSS JOIN LATERAL jsonb_array_elements(d2.limits) AS x(l)
        WHERE i2.ord = ANY (v_moves) AND i2.pending_to = 'voided'), '[]'::jsonb)
    INTO v_legs, v_limits
    FROM jsonb_to_recordset(p_items) AS i(ord integer, pending_id bigint, pending_to text)
    JOIN ledger_pending d ON d.id = i.pending_id CROSS JOIN LATERAL jsonb_array_elements(d.legs) WITH ORDINALITY AS e(l, k)
    WHERE i.ord = ANY (v_moves) AND i.pending_to = 'voided';
  END IF;

  IF cardinality(v_refused) > 0 THEN
    RETURN QUERY
    WITH refused AS MATERIALIZED (
      SELECT i.ord, i.reject, i.scope, i.endpoint, i.request_id, i.body_hash, i.now
      FROM jsonb_to_recordset(p_items) AS i(ord integer, reject integer, scope text, endpoint text, request_id text, body_hash text, now timestamptz)
      WHERE i.ord = ANY (v_refused)
    ), stored AS (
      INSERT INTO idempotency_keys (scope, endpoint, request_id, body_hash, code, result, created_at)
      SELECT r.scope, r.endpoint, r.request_id, r.body_hash, r.reject, NULL, r.now FROM refused r WHERE r.scope IS NOT NULL
    )
    SELECT r.ord, r.reject, NULL::jsonb, false FROM refused r;
  END IF;

  -- 2. The accounts of the requests left, opened and locked. Everything before needed no account lock, so a
  -- batch holds them only while it decides and writes. One pass finds them; only a batch that names an account
  -- not open yet inserts it (existing members only, in order) and looks once more. An account still missing
  -- then belongs to no member: it is not locked, and a debit of it is refused as short (ledger_refusal).
  v_opened := false;
  LOOP
    SELECT coalesce(array_agg(x.id) FILTER (WHERE x.id IS NOT NULL), '{}'), count(*) FILTER (WHERE x.id IS NULL)
    INTO v_accounts, v_missing
    FROM ledger_member_accounts(v_legs, p_fan_to, p_fan_amount, v_candidates) m
    LEFT JOIN LATERAL (SELECT a.id FROM ledger_accounts a WHERE a.member_id = m.member_id AND a.asset = m.asset LIMIT 1) x ON true;
    EXIT WHEN v_missing = 0 OR v_opened;
    INSERT INTO ledger_accounts (asset, kind, member_id)
      SELECT m.asset, 'member', m.member_id FROM ledger_member_accounts(v_legs, p_fan_to, p_fan_amount, v_candidates) m
      WHERE (SELECT true FROM ledger_accounts a WHERE a.member_id = m.member_id AND a.asset = m.asset LIMIT 1) IS NULL
        AND (SELECT true FROM members mm WHERE mm.id = m.member_id LIMIT 1)
      ORDER BY m.member_id, m.asset
      ON CONFLICT (member_id, asset) DO NOTHING;
    v_opened := true;
  END LOOP;
  -- By primary key, in (member, asset) order (a join: `id = ANY` of a payout's 100,000 ids took half a second).
  PERFORM 1 FROM unnest(v_accounts) AS u(id) JOIN ledger_accounts a ON a.id = u.id ORDER BY a.member_id, a.asset FOR UPDATE OF a;
  -- The funded system accounts the requests name, after the members' (ids below 1000), in id order: their kept
  -- balance decides and changes under this lock. The same pass over the legs finds the requests that may take from
  -- one of them (net of what they put in, or by a fan leg): only those are checked against it (a withdrawal puts more
  -- into payable than its fee takes out, so a batch of withdrawals reads its legs no more often than before).
  WITH named AS MATERIALIZED (
    SELECT l.ord, x.account_id, x.sign, l.amount, l."fanCount" IS NOT NULL AS fan
    FROM jsonb_to_recordset(v_legs) AS l(ord integer, amount bigint, "fromSystem" integer, "toSystem" integer, "fanCount" integer)
    CROSS JOIN LATERAL (VALUES (l."fromSystem", 1), (l."toSystem", -1)) AS x(account_id, sign)
    WHERE l.ord = ANY (v_candidates) AND x.account_id IS NOT NULL
  ), locked AS MATERIALIZED (
    SELECT a.id FROM ledger_accounts a WHERE a.funded AND a.id IN (SELECT n.account_id FROM named n) ORDER BY a.id FOR UPDATE OF a
  ), taker AS (
    SELECT DISTINCT t.ord FROM (
      SELECT n.ord FROM named n WHERE n.account_id IN (SELECT k.id FROM locked k)
      GROUP BY n.ord, n.account_id
      HAVING bool_or(n.fan AND n.sign = 1) OR sum(n.sign * coalesce(n.amount, 0)) > 0
    ) t
  )
  SELECT (SELECT coalesce(array_agg(k.id), '{}') FROM locked k), (SELECT coalesce(array_agg(t.ord), '{}') FROM taker t) INTO v_funded, v_takers;
  -- The counters after the accounts, in key order: every batch takes its locks in this one order. (Most batches
  -- draw from none: no statement then.)
  IF jsonb_array_length(p_counters) > 0 THEN
    PERFORM 1 FROM ledger_counters c
      WHERE c.key = ANY (ARRAY(SELECT x.key FROM jsonb_to_recordset(p_counters) AS x(ord integer, key text) WHERE x.ord = ANY (v_candidates)))
      ORDER BY c.key FOR UPDATE;
  END IF;
  -- The pending transfers after the counters, in id order. A move is sure when its pending transfer is in a stage
  -- it may leave, now that it is locked, and no other request of the batch moves it; the others run one by one.
  IF cardinality(v_moves) > 0 THEN
    PERFORM 1 FROM ledger_pending d
      WHERE d.id = ANY (ARRAY(SELECT i.pending_id FROM jsonb_to_recordset(p_items) AS i(ord integer, pending_id bigint) WHERE i.ord = ANY (v_moves)))
      ORDER BY d.id FOR UPDATE;
    SELECT coalesce(array_agg(m.ord), '{}') INTO v_unsure_moves
    FROM (
      SELECT i.ord, count(*) OVER (PARTITION BY i.pending_id) AS movers,
        coalesce((SELECT d.stage FROM ledger_pending d WHERE d.id = i.pending_id), '') = ANY (string_to_array(i.pending_from, ',')) AS may_leave
      FROM jsonb_to_recordset(p_items) AS i(ord integer, pending_id bigint, pending_from text)
      WHERE i.ord = ANY (v_moves)
    ) m
    WHERE m.movers > 1 OR NOT m.may_leave;
  END IF;

  -- 3. What surely fits, set-based; the rest one by one.
  IF cardinality(v_candidates) = 0 THEN
    v_fast := '{}';
    v_slow := '{}';
  ELSE
    WITH debit AS MATERIALIZED (
      SELECT l.ord, l."fromMember" AS member_id, l.asset, l.amount
      FROM jsonb_to_recordset(v_legs) AS l(ord integer, asset text, amount bigint, "fromMember" integer)
      WHERE l."fromMember" IS NOT NULL AND l.ord = ANY (v_candidates)
    ), limited AS MATERIALIZED (
      SELECT x.ord, x."memberId" AS member_id, x.name, x.day, x.amount, x.cap
      FROM jsonb_to_recordset(v_limits) AS x(ord integer, "memberId" integer, name text, day date, amount bigint, cap bigint)
      WHERE x.ord = ANY (v_candidates)
    ), limit_keys AS MATERIALIZED (
      SELECT l.ord, string_agg(concat_ws(':', l.member_id, l.name, l.day), ',' ORDER BY l.member_id, l.name, l.day) AS keys
      FROM limited l GROUP BY l.ord
    ), unsure_account AS MATERIALIZED (
      SELECT d.member_id, d.asset FROM debit d
      LEFT JOIN limit_keys k ON k.ord = d.ord
      LEFT JOIN LATERAL (SELECT a.balance FROM ledger_accounts a WHERE a.member_id = d.member_id AND a.asset = d.asset LIMIT 1) a ON true
      GROUP BY d.member_id, d.asset
      HAVING sum(d.amount) > coalesce(max(a.balance), -1) OR count(DISTINCT coalesce(k.keys, '')) > 1
        -- A frozen member's debit is decided one by one (refused, unless an operator's deduction).
        OR (SELECT true FROM member_freezes f WHERE f.member_id = d.member_id LIMIT 1) IS NOT NULL
    ), funded_debit AS MATERIALIZED (
      -- (Read only for the requests that may take from a funded account.)
      SELECT f.ord, f.account_id, f.amount FROM ledger_funded_debits(v_legs, p_fan_amount, v_takers) f WHERE cardinality(v_takers) > 0
    ), unsure_funded AS MATERIALIZED (
      SELECT f.account_id FROM funded_debit f GROUP BY f.account_id
      HAVING sum(f.amount) > coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.id = f.account_id LIMIT 1), -1)
    ), unsure_limit AS MATERIALIZED (
      -- Only what a batch adds counts here: its give-backs may land after its additions, and a give-back alone is
      -- never refused (ledger_refusal).
      SELECT l.member_id, l.name, l.day FROM limited l
      LEFT JOIN LATERAL (SELECT t.total FROM ledger_limits t WHERE t.member_id = l.member_id AND t.name = l.name AND t.day = l.day LIMIT 1) t ON true
      WHERE l.amount > 0
      GROUP BY l.member_id, l.name, l.day
      HAVING coalesce(max(t.total), 0) + sum(l.amount) > min(l.cap)
    ), drawn AS MATERIALIZED (
      SELECT x.ord, x.key, x.amount FROM jsonb_to_recordset(p_counters) AS x(ord integer, key text, amount bigint)
      WHERE x.ord = ANY (v_candidates)
    ), unsure_counter AS MATERIALIZED (
      SELECT d.key FROM drawn d
      LEFT JOIN LATERAL (SELECT c.available FROM ledger_counters c WHERE c.key = d.key LIMIT 1) c ON true
      GROUP BY d.key HAVING sum(d.amount) > coalesce(max(c.available), -1)
    ), slow AS MATERIALIZED (
      SELECT d.ord FROM debit d JOIN unsure_account u ON u.member_id = d.member_id AND u.asset = d.asset
      UNION
      SELECT l.ord FROM limited l JOIN unsure_limit u ON u.member_id = l.member_id AND u.name = l.name AND u.day = l.day
      UNION
      SELECT d.ord FROM drawn d JOIN unsure_counter u ON u.key = d.key
      UNION
      SELECT f.ord FROM funded_debit f JOIN unsure_funded u ON u.account_id = f.account_id
    ), first_debit AS MATERIALIZED (
      SELECT d.ord, min(d.member_id) AS member_id FROM debit d GROUP BY d.ord
    )
    SELECT coalesce(array_agg(c.ord ORDER BY c.ord) FILTER (WHERE s.ord IS NULL), '{}'),
      coalesce(array_agg(c.ord ORDER BY f.member_id, c.ord) FILTER (WHERE s.ord IS NOT NULL), '{}')
    INTO v_fast, v_slow
    FROM unnest(v_candidates) AS c(ord)
    LEFT JOIN (SELECT s.ord FROM slow s UNION SELECT m.ord FROM unnest(v_unsure_moves) AS m(ord)) s ON s.ord = c.ord
    LEFT JOIN first_debit f ON f.ord = c.ord;
  END IF;

  IF cardinality(v_fast) > 0 THEN
    RETURN QUERY SELECT a.ord, 0, a.result, true FROM ledger_apply(p_items, v_legs, p_fan_to, p_fan_amount, v_limits, p_counters, v_fast, v_funded) a;
  END IF;
  FOREACH v_ord IN ARRAY v_slow LOOP
    SELECT CASE
        WHEN i.pending_id IS NOT NULL AND coalesce((SELECT d.stage FROM ledger_pending d WHERE d.id = i.pending_id), '')
          <> ALL (string_to_array(i.pending_from, ',')) THEN i.pending_code
        ELSE ledger_refusal(v_legs, p_fan_amount, v_limits, p_counters, v_ord, i.short_code, i.limit_code, i.counter_code, i.debit_frozen) END
    INTO v_code
    FROM jsonb_to_recordset(p_items) AS i(ord integer, short_code integer, limit_code integer, counter_code integer, pending_id bigint,
      pending_from text, pending_code integer, debit_frozen boolean) WHERE i.ord = v_ord;
    IF v_code = 0 THEN
      RETURN QUERY SELECT a.ord, 0, a.result, false FROM ledger_apply(p_items, v_legs, p_fan_to, p_fan_amount, v_limits, p_counters, ARRAY[v_ord], v_funded) a;
    ELSE
      INSERT INTO idempotency_keys (scope, endpoint, request_id, body_hash, code, result, created_at)
      SELECT i.scope, i.endpoint, i.request_id, i.body_hash, v_code, NULL, i.now
      FROM jsonb_to_recordset(p_items) AS i(ord integer, scope text, endpoint text, request_id text, body_hash text, now timestamptz)
      WHERE i.ord = v_ord AND i.scope IS NOT NULL;
      ord := v_ord;
      code := v_code;
      result := NULL;
      set_based := false;
      RETURN NEXT;
    END IF;
  END LOOP;

  -- A second request with an id first seen in this batch: what the first stored.
  IF cardinality(v_repeats) > 0 THEN
    RETURN QUERY SELECT * FROM ledger_stored_answers(p_items, v_repeats);
  END IF;
END $$;
