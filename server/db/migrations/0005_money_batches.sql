-- A claim that never got its outcome (its process died) moved no money: the outcome now commits with the money.
DELETE FROM "idempotency_keys" WHERE "code" IS NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_status";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "code" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP COLUMN "claim_token";--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP COLUMN "lease_until";--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP COLUMN "completed_at";--> statement-breakpoint
-- Added by hand below drizzle-kit's statements: the ledger's SQL functions (ADR 0012). Every money movement and
-- every at-most-once check runs in the database, so that a batch of requests is one call and one commit.

-- Minor units as the API's decimal string, without trailing zeros (server/ledger/money.ts formatMinor).
CREATE OR REPLACE FUNCTION money_text(p_minor bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_minor < 0 THEN '-' ELSE '' END || (abs(p_minor) / 1000000)::text
    || coalesce('.' || nullif(rtrim(lpad((abs(p_minor) % 1000000)::text, 6, '0'), '0'), ''), '')
$$;--> statement-breakpoint

-- A decimal string with at most 6 decimals (app_config's limits) as minor units.
CREATE OR REPLACE FUNCTION money_minor(p_text text) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT (p_text::numeric * 1000000)::bigint
$$;--> statement-breakpoint

-- Opens a money request's key: takes the key's transaction-scoped advisory lock (another transaction holding it
-- means the first request is still running: 3005), then reads its stored outcome. code NULL: new, go ahead and
-- store the outcome with idempotency_store in this transaction. Otherwise the answer: the stored code and result,
-- or 3003 when the stored body hash differs.
CREATE OR REPLACE FUNCTION idempotency_open(p_scope text, p_endpoint text, p_request_id text, p_body_hash text,
  OUT code integer, OUT result jsonb) LANGUAGE plpgsql AS $$
DECLARE
  v_stored record;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtextextended(p_scope || chr(31) || p_endpoint || chr(31) || p_request_id, 4361)) THEN
    code := 3005;
    RETURN;
  END IF;
  SELECT k.body_hash, k.code, k.result INTO v_stored FROM idempotency_keys k
    WHERE k.scope = p_scope AND k.endpoint = p_endpoint AND k.request_id = p_request_id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF v_stored.body_hash <> p_body_hash THEN
    code := 3003;
    RETURN;
  END IF;
  code := v_stored.code;
  result := v_stored.result;
END $$;--> statement-breakpoint

-- PL/pgSQL rather than SQL: PL/pgSQL keeps the INSERT's plan per connection, a SQL function plans it on every call.
CREATE OR REPLACE FUNCTION idempotency_store(p_scope text, p_endpoint text, p_request_id text, p_body_hash text,
  p_code integer, p_result jsonb, p_now timestamptz) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO idempotency_keys (scope, endpoint, request_id, body_hash, code, result, created_at)
  VALUES (p_scope, p_endpoint, p_request_id, p_body_hash, p_code, p_result, p_now);
END $$;--> statement-breakpoint

-- Moves an amount from a member account to a system account, only if the balance covers it (the UPDATE takes the
-- row's lock), with the transfer and the member's entry, which keeps the balance before and after (system accounts
-- have no entries: migration 0006). All three outputs are NULL when the balance is short or the account does not
-- exist, and then nothing was written.
CREATE OR REPLACE FUNCTION ledger_debit_member(p_asset text, p_type text, p_member_id integer, p_to_account integer,
  p_amount bigint, p_withdrawal_id bigint, p_memo text, p_now timestamptz,
  OUT transfer bigint, OUT entry bigint, OUT balance_after bigint) LANGUAGE plpgsql AS $$
DECLARE
  v_account integer;
  v_version bigint;
BEGIN
  UPDATE ledger_accounts a SET balance = a.balance - p_amount, version = a.version + 1
    WHERE a.member_id = p_member_id AND a.asset = p_asset AND a.balance >= p_amount
    RETURNING a.id, a.balance, a.version INTO v_account, balance_after, v_version;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, withdrawal_id, memo, created_at)
    VALUES (p_asset, p_type, v_account, p_to_account, p_amount, p_withdrawal_id, p_memo, p_now) RETURNING id INTO transfer;
  INSERT INTO ledger_entries (transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at)
    VALUES (transfer, v_account, p_asset, -p_amount, balance_after + p_amount, balance_after, v_version, p_now) RETURNING id INTO entry;
END $$;--> statement-breakpoint

-- Moves an amount from a system account to a member account (created on its first movement, under the row's lock
-- either way), with the transfer and the member's entry.
CREATE OR REPLACE FUNCTION ledger_credit_member(p_asset text, p_type text, p_member_id integer, p_from_account integer,
  p_amount bigint, p_withdrawal_id bigint, p_memo text, p_now timestamptz,
  OUT transfer bigint, OUT entry bigint, OUT balance_after bigint) LANGUAGE plpgsql AS $$
DECLARE
  v_account integer;
  v_version bigint;
BEGIN
  INSERT INTO ledger_accounts AS a (asset, kind, member_id, balance, version) VALUES (p_asset, 'member', p_member_id, p_amount, 1)
    ON CONFLICT (member_id, asset) DO UPDATE SET balance = a.balance + excluded.balance, version = a.version + 1
    RETURNING a.id, a.balance, a.version INTO v_account, balance_after, v_version;
  INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, withdrawal_id, memo, created_at)
    VALUES (p_asset, p_type, p_from_account, v_account, p_amount, p_withdrawal_id, p_memo, p_now) RETURNING id INTO transfer;
  INSERT INTO ledger_entries (transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at)
    VALUES (transfer, v_account, p_asset, p_amount, balance_after - p_amount, balance_after, v_version, p_now) RETURNING id INTO entry;
END $$;--> statement-breakpoint

-- Moves an amount between two system accounts: a transfer alone (they keep no running balance and no entries).
CREATE OR REPLACE FUNCTION ledger_move_system(p_asset text, p_type text, p_from_account integer, p_to_account integer,
  p_amount bigint, p_withdrawal_id bigint, p_now timestamptz, OUT transfer bigint) LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, withdrawal_id, created_at)
    VALUES (p_asset, p_type, p_from_account, p_to_account, p_amount, p_withdrawal_id, p_now) RETURNING id INTO transfer;
END $$;--> statement-breakpoint

-- A batch of credit withdrawals in one transaction (server/ledger/withdrawals.ts sends whatever arrived while the
-- previous batch ran). Items go in member order, so two batches lock member accounts in the same order. Each item:
-- at most once per request id (idempotency_open), limits (3002), then one statement adds the amount to the day's
-- total unless that passes the cap or the balance is short, debits the member only if the balance covers it (both under their row locks),
-- and writes the withdrawal, the member's debit to withdrawals payable with its entry, and the fee from payable to
-- fees: the same rows as ledger_debit_member and ledger_move_system write, in one statement instead of a dozen,
-- because on PGlite each statement's fixed cost is most of a withdrawal's (ADR 0012). When it wrote nothing, the
-- reason is found (the balance first, then the cap, as before) and the day's total put back (3001 or 3002). The outcome is stored with it; a rejection's result
-- is NULL (the code says it all).
-- plan_cache_mode: the statements inside are planned once per connection, not once per item (for each item the
-- planner would otherwise keep choosing a custom plan, folding the item's values into a fresh plan of the CTE).
CREATE OR REPLACE FUNCTION ledger_withdraw_batch(p_items jsonb, p_payable integer, p_fees integer)
  RETURNS TABLE (ord integer, code integer, result jsonb) LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_item jsonb;
  v_config jsonb;
  v_min bigint;
  v_max bigint;
  v_fee bigint;
  v_cap bigint;
  v_member integer;
  v_amount bigint;
  v_now timestamptz;
  v_day date;
  v_scope text;
  v_request_id text;
  v_body_hash text;
  v_opened record;
  v_withdrawal bigint;
  v_counted boolean;
BEGIN
  SELECT c.value INTO v_config FROM app_config c WHERE c.id = 1;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'app_config is empty: run the seed';
  END IF;
  v_min := money_minor(v_config->>'minWithdraw');
  v_max := money_minor(v_config->>'maxWithdraw');
  v_fee := money_minor(v_config->>'withdrawFee');
  v_cap := money_minor(v_config->>'dailyWithdrawCap');
  FOR v_item IN SELECT i.value FROM jsonb_array_elements(p_items) i ORDER BY (i.value->>'memberId')::integer, (i.value->>'ord')::integer LOOP
    ord := (v_item->>'ord')::integer;
    result := NULL;
    v_member := (v_item->>'memberId')::integer;
    v_amount := (v_item->>'amount')::bigint;
    v_now := (v_item->>'now')::timestamptz;
    v_day := (v_now AT TIME ZONE 'UTC')::date;
    v_scope := 'member:' || v_member;
    v_request_id := v_item->>'requestId';
    v_body_hash := v_item->>'bodyHash';
    -- An assignment, not SELECT ... INTO: PL/pgSQL evaluates it without starting the executor (about a fifth of an
    -- item's cost in this loop).
    v_opened := idempotency_open(v_scope, 'withdrawCredit', v_request_id, v_body_hash);
    IF v_opened.code IS NOT NULL THEN
      code := v_opened.code;
      result := v_opened.result;
      RETURN NEXT;
      CONTINUE;
    END IF;
    v_withdrawal := NULL;
    IF v_amount < v_min OR v_amount > v_max OR v_fee >= v_amount THEN
      code := 3002;
    ELSE
      WITH today AS (
        INSERT INTO withdrawal_days AS d (member_id, day, total) SELECT v_member, v_day, v_amount
        WHERE v_amount <= v_cap AND EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.member_id = v_member AND a.asset = 'CREDIT' AND a.balance >= v_amount)
        ON CONFLICT (member_id, day) DO UPDATE SET total = d.total + excluded.total WHERE d.total + excluded.total <= v_cap
        RETURNING d.total
      ), account AS (
        UPDATE ledger_accounts a SET balance = a.balance - v_amount, version = a.version + 1
        WHERE a.member_id = v_member AND a.asset = 'CREDIT' AND a.balance >= v_amount AND EXISTS (SELECT 1 FROM today)
        RETURNING a.id, a.balance, a.version
      ), withdrawal AS (
        INSERT INTO withdrawals (member_id, amount, fee, status, created_at)
        SELECT v_member, v_amount, v_fee, 'pending', v_now FROM account
        RETURNING id
      ), transfer AS (
        INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, withdrawal_id, created_at)
        SELECT 'CREDIT', 'withdraw', account.id, p_payable, v_amount, withdrawal.id, v_now FROM account, withdrawal
        UNION ALL
        SELECT 'CREDIT', 'fee', p_payable, p_fees, v_fee, withdrawal.id, v_now FROM withdrawal WHERE v_fee > 0
        RETURNING id, debit_account_id, amount
      ), entry AS (
        INSERT INTO ledger_entries (transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at)
        SELECT transfer.id, account.id, 'CREDIT', -transfer.amount, account.balance + transfer.amount, account.balance, account.version, v_now
        FROM transfer JOIN account ON account.id = transfer.debit_account_id
      )
      SELECT withdrawal.id, EXISTS (SELECT 1 FROM today) INTO v_withdrawal, v_counted FROM (SELECT 1) one LEFT JOIN withdrawal ON true;
      IF v_withdrawal IS NOT NULL THEN
        code := 0;
        result := jsonb_build_object('id', v_withdrawal::text, 'amount', money_text(v_amount), 'fee', money_text(v_fee), 'status', 'pending');
      ELSE
        -- Nothing written but perhaps the day's total: put it back, then tell which rule refused.
        IF v_counted THEN
          UPDATE withdrawal_days d SET total = d.total - v_amount WHERE d.member_id = v_member AND d.day = v_day;
        END IF;
        IF NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.member_id = v_member AND a.asset = 'CREDIT' AND a.balance >= v_amount) THEN
          code := 3001;
        ELSE
          code := 3002;
        END IF;
      END IF;
    END IF;
    PERFORM idempotency_store(v_scope, 'withdrawCredit', v_request_id, v_body_hash, code, result, v_now);
    RETURN NEXT;
  END LOOP;
END $$;
