-- The ledger engine (docs/decisions/0014-ledger-engine.md): every money flow's requests go through ledger_post.
-- This file is the engine's one definition. `database.migrate()` applies it after the migrations on every start
-- (each statement replaces its function as a whole), so what runs is what this file says, top to bottom.
--
-- A request is data (server/ledger/engine.ts builds it):
--   { ord, now, key?: { scope, endpoint, requestId, bodyHash }, reject?: code,
--     legs: [{ asset, type, amount, fromMember | fromSystem, toMember | toSystem, memo?, withdrawal?: 'record' | id }],
--     limits?: [{ memberId, name, day, amount, cap }], record?: { table, row }, result?: template,
--     shortCode?, limitCode? }
-- Its legs are linked: all of them move or none. A debit of a member account needs the balance to cover it, a limit
-- needs its day's total plus the amount to stay within the cap; otherwise the request is refused with shortCode
-- (3001) or limitCode (3002) and nothing of it is written but its outcome. `reject` is a refusal the flow decided
-- from the request alone (limits of a single amount, an unknown member): it is stored like any other outcome, after
-- the key is checked, so a repeat of an accepted request still gets its first answer.

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

-- A success's result from the flow's template: "$record" is the business row's id, "$transfer" the first leg's
-- transfer, "$entry" and "$balanceAfter" the first member entry and the balance it left.
CREATE OR REPLACE FUNCTION ledger_result(p_template jsonb, p_record bigint, p_transfer bigint, p_entry bigint, p_balance bigint)
  RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(p_template) IS DISTINCT FROM 'object' THEN NULL ELSE coalesce((
    SELECT jsonb_object_agg(t.key, CASE t.value
        WHEN '"$record"' THEN to_jsonb(p_record::text)
        WHEN '"$transfer"' THEN to_jsonb(p_transfer::text)
        WHEN '"$entry"' THEN to_jsonb(p_entry::text)
        WHEN '"$balanceAfter"' THEN to_jsonb(money_text(p_balance))
        ELSE t.value END)
    FROM jsonb_each(p_template) t), '{}'::jsonb) END
$$;--> statement-breakpoint

-- The member accounts a set of requests names, on either side of a leg.
CREATE OR REPLACE FUNCTION ledger_member_accounts(p_items jsonb) RETURNS TABLE (member_id integer, asset text)
  LANGUAGE sql STABLE AS $$
  SELECT DISTINCT s.member_id, l.value->>'asset'
  FROM jsonb_array_elements(p_items) i
  CROSS JOIN LATERAL jsonb_array_elements(i.value->'legs') l
  CROSS JOIN LATERAL (VALUES ((l.value->>'fromMember')::integer), ((l.value->>'toMember')::integer)) AS s(member_id)
  WHERE s.member_id IS NOT NULL
$$;--> statement-breakpoint

-- What refuses one request against the balances and totals as they are now: its shortCode when a debited member
-- account is missing or does not cover the request's debits of it, its limitCode when a limit would pass its cap,
-- else 0.
CREATE OR REPLACE FUNCTION ledger_refusal(p_item jsonb) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN EXISTS (
      SELECT 1 FROM (
        SELECT (l.value->>'fromMember')::integer AS member_id, l.value->>'asset' AS asset, sum((l.value->>'amount')::bigint) AS amount
        FROM jsonb_array_elements(p_item->'legs') l WHERE l.value ? 'fromMember' GROUP BY 1, 2
      ) d
      WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.member_id = d.member_id AND a.asset = d.asset AND a.balance >= d.amount)
    ) THEN coalesce((p_item->>'shortCode')::integer, 3001)
    WHEN EXISTS (
      SELECT 1 FROM jsonb_array_elements(p_item->'limits') x
      WHERE coalesce((SELECT t.total FROM ledger_limits t
                      WHERE t.member_id = (x.value->>'memberId')::integer AND t.name = x.value->>'name' AND t.day = (x.value->>'day')::date), 0)
            + (x.value->>'amount')::bigint > (x.value->>'cap')::bigint
    ) THEN coalesce((p_item->>'limitCode')::integer, 3002)
    ELSE 0 END
$$;--> statement-breakpoint

-- Writes requests that are known to fit, in one statement for all of them: business rows, account balances, the
-- transfers, the member entries (each with the running balance and version that one by one would give), the
-- limits' totals and the stored outcomes. Ids are drawn in request and leg order. The accounts are locked already.
CREATE OR REPLACE FUNCTION ledger_apply(p_items jsonb) RETURNS TABLE (ord integer, result jsonb)
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_records jsonb;
  v_table text;
  v_rows jsonb;
BEGIN
  -- Business rows: one INSERT per table, with ids drawn beforehand so the transfers can name them.
  SELECT coalesce(jsonb_object_agg(r.ord::text, r.id), '{}'::jsonb) INTO v_records FROM (
    SELECT x.ord, nextval(pg_get_serial_sequence(x.tbl, 'id')::regclass) AS id FROM (
      SELECT (i.value->>'ord')::integer AS ord, i.value->'record'->>'table' AS tbl FROM jsonb_array_elements(p_items) i
      WHERE jsonb_typeof(i.value->'record') = 'object' ORDER BY 1
    ) x
  ) r;
  FOR v_table, v_rows IN
    SELECT i.value->'record'->>'table',
      jsonb_agg((i.value->'record'->'row') || jsonb_build_object('id', v_records->(i.value->>'ord')) ORDER BY (i.value->>'ord')::integer)
    FROM jsonb_array_elements(p_items) i WHERE jsonb_typeof(i.value->'record') = 'object' GROUP BY 1
  LOOP
    EXECUTE format('INSERT INTO %I OVERRIDING SYSTEM VALUE SELECT * FROM jsonb_populate_recordset(NULL::%I, $1)', v_table, v_table) USING v_rows;
  END LOOP;

  RETURN QUERY
  WITH item AS (
    SELECT (i.value->>'ord')::integer AS ord, i.value AS v, (i.value->>'now')::timestamptz AS now,
      (v_records->>(i.value->>'ord'))::bigint AS record_id
    FROM jsonb_array_elements(p_items) i
  ), leg AS (
    -- Transfer ids drawn in request and leg order (the sorted subquery is projected in its order).
    SELECT o.*, nextval('ledger_transfers_id_seq') AS transfer_id FROM (
      SELECT it.ord, l.n, it.now, l.v->>'asset' AS asset, l.v->>'type' AS type, (l.v->>'amount')::bigint AS amount,
        l.v->>'memo' AS memo,
        CASE WHEN l.v->>'withdrawal' = 'record' THEN it.record_id ELSE (l.v->>'withdrawal')::bigint END AS withdrawal_id,
        coalesce((l.v->>'fromSystem')::integer,
          (SELECT a.id FROM ledger_accounts a WHERE a.member_id = (l.v->>'fromMember')::integer AND a.asset = l.v->>'asset')) AS debit_id,
        coalesce((l.v->>'toSystem')::integer,
          (SELECT a.id FROM ledger_accounts a WHERE a.member_id = (l.v->>'toMember')::integer AND a.asset = l.v->>'asset')) AS credit_id,
        l.v ? 'fromMember' AS debit_member, l.v ? 'toMember' AS credit_member
      FROM item it CROSS JOIN LATERAL jsonb_array_elements(it.v->'legs') WITH ORDINALITY AS l(v, n)
      ORDER BY it.ord, l.n
    ) o
  ), side AS (
    SELECT l.ord, l.n, l.now, l.asset, l.transfer_id, s.account_id, s.delta, s.k
    FROM leg l
    CROSS JOIN LATERAL (VALUES (l.debit_id, -l.amount, l.debit_member, 0), (l.credit_id, l.amount, l.credit_member, 1))
      AS s(account_id, delta, is_member, k)
    WHERE s.is_member
  ), running AS (
    -- Entry ids drawn in request, leg and side order, as the transfers'.
    SELECT o.*, nextval('ledger_entries_id_seq') AS entry_id FROM (
      SELECT s.*, (a.balance + sum(s.delta) OVER w)::bigint AS balance_after, a.version + row_number() OVER w AS version_after
      FROM side s
      CROSS JOIN LATERAL (SELECT a.balance, a.version FROM ledger_accounts a WHERE a.id = s.account_id) a
      WINDOW w AS (PARTITION BY s.account_id ORDER BY s.ord, s.n, s.k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
      ORDER BY s.ord, s.n, s.k
    ) o
  ), account AS (
    UPDATE ledger_accounts a SET balance = a.balance + t.delta, version = a.version + t.moves
    FROM (SELECT s.account_id, sum(s.delta)::bigint AS delta, count(*) AS moves FROM side s GROUP BY s.account_id) t
    WHERE a.id = t.account_id
  ), transfer AS (
    INSERT INTO ledger_transfers (id, asset, type, debit_account_id, credit_account_id, amount, withdrawal_id, memo, created_at)
      OVERRIDING SYSTEM VALUE
    SELECT l.transfer_id, l.asset, l.type, l.debit_id, l.credit_id, l.amount, l.withdrawal_id, l.memo, l.now FROM leg l
  ), entry AS (
    INSERT INTO ledger_entries (id, transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at)
      OVERRIDING SYSTEM VALUE
    SELECT r.entry_id, r.transfer_id, r.account_id, r.asset, r.delta, r.balance_after - r.delta, r.balance_after, r.version_after, r.now
    FROM running r
  ), limit_sum AS (
    SELECT (x.v->>'memberId')::integer AS member_id, x.v->>'name' AS name, (x.v->>'day')::date AS day,
      sum((x.v->>'amount')::bigint)::bigint AS amount
    FROM item it CROSS JOIN LATERAL jsonb_array_elements(coalesce(it.v->'limits', '[]'::jsonb)) AS x(v)
    GROUP BY 1, 2, 3
  ), limit_added AS (
    INSERT INTO ledger_limits AS d (member_id, name, day, total)
    SELECT m.member_id, m.name, m.day, m.amount FROM limit_sum m WHERE m.amount >= 0 ORDER BY 1, 2, 3
    ON CONFLICT (member_id, name, day) DO UPDATE SET total = d.total + excluded.total
  ), limit_given_back AS (
    -- An UPDATE, not the upsert: the proposed row of an upsert must pass the CHECK (total >= 0) by itself.
    UPDATE ledger_limits d SET total = d.total + m.amount FROM limit_sum m
    WHERE m.amount < 0 AND d.member_id = m.member_id AND d.name = m.name AND d.day = m.day
  ), answered AS (
    SELECT it.ord, it.v, it.now, ledger_result(it.v->'result', it.record_id, f.transfer_id, f.entry_id, f.balance_after) AS result
    FROM item it
    LEFT JOIN LATERAL (SELECT r.transfer_id, r.entry_id, r.balance_after FROM running r WHERE r.ord = it.ord ORDER BY r.n, r.k LIMIT 1) f ON true
  ), stored AS (
    INSERT INTO idempotency_keys (scope, endpoint, request_id, body_hash, code, result, created_at)
    SELECT a.v->'key'->>'scope', a.v->'key'->>'endpoint', a.v->'key'->>'requestId', a.v->'key'->>'bodyHash', 0, a.result, a.now
    FROM answered a WHERE jsonb_typeof(a.v->'key') = 'object'
  )
  SELECT a.ord, a.result FROM answered a;
END $$;--> statement-breakpoint

-- Posts a batch of requests in the caller's transaction (a statement of its own commits alone) and answers one
-- outcome per request: its ord, code (0 or a refusal), result, and whether the set-based write answered it.
--   1. Every member account the batch names is opened (existing members only, empty, in order) and then locked in
--      (member, asset) order, so two batches never wait for each other in opposite orders. Limits are only ever
--      touched under their member's account lock.
--   2. At most once: each request id's advisory lock (held elsewhere: 3005, the first is still running); an id
--      already stored answers its outcome (another body: 3003); a second request with an id new in this batch is
--      answered at the end from what the first stored.
--   3. A flow's own refusal is stored as the outcome.
--   4. The rest in one statement where they surely fit: every debited account covers all the batch's debits of it
--      and its requests share one set of limits, and every limit holds all of its requests. The others one by one,
--      in member order, each against what the earlier ones left (ledger_refusal, then ledger_apply of one).
CREATE OR REPLACE FUNCTION ledger_post(p_items jsonb)
  RETURNS TABLE (ord integer, code integer, result jsonb, set_based boolean)
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_busy integer[];
  v_new jsonb;
  v_repeats jsonb;
  v_fast jsonb;
  v_slow jsonb;
  v_item jsonb;
  v_code integer;
BEGIN
  -- 1. Accounts.
  INSERT INTO ledger_accounts (asset, kind, member_id)
    SELECT m.asset, 'member', m.member_id FROM ledger_member_accounts(p_items) m
    WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.member_id = m.member_id AND a.asset = m.asset)
      AND EXISTS (SELECT 1 FROM members mm WHERE mm.id = m.member_id)
    ORDER BY m.member_id, m.asset
    ON CONFLICT (member_id, asset) DO NOTHING;
  PERFORM 1 FROM ledger_accounts a
    WHERE a.id = ANY (ARRAY(
      SELECT x.id FROM ledger_member_accounts(p_items) m
      CROSS JOIN LATERAL (SELECT a2.id FROM ledger_accounts a2 WHERE a2.member_id = m.member_id AND a2.asset = m.asset LIMIT 1) x))
    ORDER BY a.member_id, a.asset FOR UPDATE;

  -- 2. Request ids. A statement of its own: the stored outcomes are read with a snapshot taken after the locks.
  SELECT coalesce(array_agg(x.ord) FILTER (WHERE NOT x.locked), '{}') INTO v_busy FROM (
    SELECT (i.value->>'ord')::integer AS ord,
      pg_try_advisory_xact_lock(ledger_key_lock(i.value->'key'->>'scope', i.value->'key'->>'endpoint', i.value->'key'->>'requestId')) AS locked
    FROM jsonb_array_elements(p_items) i WHERE jsonb_typeof(i.value->'key') = 'object'
  ) x;
  RETURN QUERY SELECT b.ord, 3005, NULL::jsonb, false FROM unnest(v_busy) AS b(ord);

  RETURN QUERY
  SELECT x.ord, CASE WHEN k.body_hash = x.body_hash THEN k.code ELSE 3003 END,
    CASE WHEN k.body_hash = x.body_hash THEN k.result END, false
  FROM (
    SELECT (i.value->>'ord')::integer AS ord, i.value->'key' AS key, i.value->'key'->>'bodyHash' AS body_hash
    FROM jsonb_array_elements(p_items) i
    WHERE jsonb_typeof(i.value->'key') = 'object' AND NOT ((i.value->>'ord')::integer = ANY (v_busy))
  ) x
  CROSS JOIN LATERAL (
    SELECT k.body_hash, k.code, k.result FROM idempotency_keys k
    WHERE k.scope = x.key->>'scope' AND k.endpoint = x.key->>'endpoint' AND k.request_id = x.key->>'requestId'
  ) k;

  SELECT coalesce(jsonb_agg(c.v ORDER BY c.ord) FILTER (WHERE c.state = 'new'), '[]'::jsonb),
    coalesce(jsonb_agg(c.v ORDER BY c.ord) FILTER (WHERE c.state = 'repeat'), '[]'::jsonb)
  INTO v_new, v_repeats
  FROM (
    SELECT x.ord, x.v, CASE WHEN x.ord = ANY (v_busy) OR x.stored THEN 'answered' WHEN x.nth > 1 THEN 'repeat' ELSE 'new' END AS state
    FROM (
      SELECT (i.value->>'ord')::integer AS ord, i.value AS v,
        jsonb_typeof(i.value->'key') = 'object' AND EXISTS (
          SELECT 1 FROM idempotency_keys k WHERE k.scope = i.value->'key'->>'scope' AND k.endpoint = i.value->'key'->>'endpoint'
            AND k.request_id = i.value->'key'->>'requestId') AS stored,
        CASE WHEN jsonb_typeof(i.value->'key') = 'object' THEN row_number() OVER (
          PARTITION BY i.value->'key'->>'scope', i.value->'key'->>'endpoint', i.value->'key'->>'requestId'
          ORDER BY (i.value->>'ord')::integer) ELSE 1 END AS nth
      FROM jsonb_array_elements(p_items) i
    ) x
  ) c;

  -- 3. The flows' own refusals.
  RETURN QUERY
  WITH refused AS (
    SELECT (i.value->>'ord')::integer AS ord, (i.value->>'reject')::integer AS code, i.value->'key' AS key, (i.value->>'now')::timestamptz AS now
    FROM jsonb_array_elements(v_new) i WHERE i.value->>'reject' IS NOT NULL
  ), stored AS (
    INSERT INTO idempotency_keys (scope, endpoint, request_id, body_hash, code, result, created_at)
    SELECT r.key->>'scope', r.key->>'endpoint', r.key->>'requestId', r.key->>'bodyHash', r.code, NULL, r.now
    FROM refused r WHERE jsonb_typeof(r.key) = 'object'
  )
  SELECT r.ord, r.code, NULL::jsonb, false FROM refused r;

  -- 4. What surely fits, set-based; the rest one by one.
  WITH cand AS (
    SELECT (i.value->>'ord')::integer AS ord, i.value AS v FROM jsonb_array_elements(v_new) i WHERE i.value->>'reject' IS NULL
  ), limit_keys AS (
    SELECT c.ord, coalesce((SELECT string_agg(concat_ws(':', x.value->>'memberId', x.value->>'name', x.value->>'day'), ',' ORDER BY 1)
                            FROM jsonb_array_elements(c.v->'limits') x), '') AS keys
    FROM cand c
  ), debit AS (
    SELECT c.ord, (l.value->>'fromMember')::integer AS member_id, l.value->>'asset' AS asset, (l.value->>'amount')::bigint AS amount
    FROM cand c CROSS JOIN LATERAL jsonb_array_elements(c.v->'legs') l WHERE l.value ? 'fromMember'
  ), limited AS (
    SELECT c.ord, (x.value->>'memberId')::integer AS member_id, x.value->>'name' AS name, (x.value->>'day')::date AS day,
      (x.value->>'amount')::bigint AS amount, (x.value->>'cap')::bigint AS cap
    FROM cand c CROSS JOIN LATERAL jsonb_array_elements(coalesce(c.v->'limits', '[]'::jsonb)) x
  ), unsure_account AS (
    SELECT d.member_id, d.asset FROM debit d JOIN limit_keys k ON k.ord = d.ord
    LEFT JOIN LATERAL (SELECT a.balance FROM ledger_accounts a WHERE a.member_id = d.member_id AND a.asset = d.asset LIMIT 1) a ON true
    GROUP BY d.member_id, d.asset
    HAVING sum(d.amount) > coalesce(max(a.balance), -1) OR count(DISTINCT k.keys) > 1
  ), unsure_limit AS (
    SELECT l.member_id, l.name, l.day FROM limited l
    LEFT JOIN LATERAL (SELECT t.total FROM ledger_limits t WHERE t.member_id = l.member_id AND t.name = l.name AND t.day = l.day LIMIT 1) t ON true
    GROUP BY l.member_id, l.name, l.day
    HAVING coalesce(max(t.total), 0) + sum(l.amount) > min(l.cap)
  ), slow AS (
    SELECT d.ord FROM debit d JOIN unsure_account u ON u.member_id = d.member_id AND u.asset = d.asset
    UNION
    SELECT l.ord FROM limited l JOIN unsure_limit u ON u.member_id = l.member_id AND u.name = l.name AND u.day = l.day
  )
  SELECT coalesce(jsonb_agg(c.v ORDER BY c.ord) FILTER (WHERE NOT EXISTS (SELECT 1 FROM slow s WHERE s.ord = c.ord)), '[]'::jsonb),
    coalesce(jsonb_agg(c.v ORDER BY (SELECT min(d.member_id) FROM debit d WHERE d.ord = c.ord), c.ord)
             FILTER (WHERE EXISTS (SELECT 1 FROM slow s WHERE s.ord = c.ord)), '[]'::jsonb)
  INTO v_fast, v_slow
  FROM cand c;

  IF jsonb_array_length(v_fast) > 0 THEN
    RETURN QUERY SELECT a.ord, 0, a.result, true FROM ledger_apply(v_fast) a;
  END IF;
  FOR v_item IN SELECT i.value FROM jsonb_array_elements(v_slow) WITH ORDINALITY AS i(value, n) ORDER BY i.n LOOP
    v_code := ledger_refusal(v_item);
    IF v_code = 0 THEN
      RETURN QUERY SELECT a.ord, 0, a.result, false FROM ledger_apply(jsonb_build_array(v_item)) a;
    ELSE
      IF jsonb_typeof(v_item->'key') = 'object' THEN
        INSERT INTO idempotency_keys (scope, endpoint, request_id, body_hash, code, result, created_at)
        VALUES (v_item->'key'->>'scope', v_item->'key'->>'endpoint', v_item->'key'->>'requestId', v_item->'key'->>'bodyHash',
          v_code, NULL, (v_item->>'now')::timestamptz);
      END IF;
      ord := (v_item->>'ord')::integer;
      code := v_code;
      result := NULL;
      set_based := false;
      RETURN NEXT;
    END IF;
  END LOOP;

  -- A second request with an id first seen in this batch: what the first stored.
  RETURN QUERY
  SELECT x.ord, CASE WHEN k.body_hash = x.body_hash THEN k.code ELSE 3003 END,
    CASE WHEN k.body_hash = x.body_hash THEN k.result END, false
  FROM (
    SELECT (i.value->>'ord')::integer AS ord, i.value->'key' AS key, i.value->'key'->>'bodyHash' AS body_hash
    FROM jsonb_array_elements(v_repeats) i
  ) x
  CROSS JOIN LATERAL (
    SELECT k.body_hash, k.code, k.result FROM idempotency_keys k
    WHERE k.scope = x.key->>'scope' AND k.endpoint = x.key->>'endpoint' AND k.request_id = x.key->>'requestId'
  ) k;
END $$;
