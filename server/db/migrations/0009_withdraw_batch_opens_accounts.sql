-- ledger_withdraw_batch opens its members' CREDIT accounts before it locks them (ADR 0012, "Lock order").
--
-- Migration 0008 locks the batch's accounts in member order first, but only the accounts that exist then. A member
-- whose account a grant created and committed after that lock was taken (the first grant creates the account) was
-- locked later, by the set-based statement or the item loop, out of member order: two instances' batches could then
-- each hold an account the other waited for (PostgreSQL found the deadlock and failed one batch; seen in CI's
-- concurrency suite as a 5000 on a grant queued behind them). Now every member of the batch has its account, empty
-- if it had none (balance 0, version 0, no entries: what a missing account meant), before 0008's function, renamed
-- ledger_withdraw_existing, locks them all in member order; nothing in the batch locks an account after that.
--
-- Only missing accounts of existing members are inserted (an unknown member id stays a 3001, as before): ON
-- CONFLICT DO NOTHING still draws an id from the identity for every row it is offered, and offering every member of
-- every batch would use up the integer ids. Rows go in member order, so two batches that both insert wait for each
-- other in that order too.
ALTER FUNCTION ledger_withdraw_batch(jsonb, integer, integer) RENAME TO ledger_withdraw_existing;--> statement-breakpoint
CREATE FUNCTION ledger_withdraw_batch(p_items jsonb, p_payable integer, p_fees integer)
  RETURNS TABLE (ord integer, code integer, result jsonb, set_based boolean) LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO ledger_accounts (asset, kind, member_id)
    SELECT 'CREDIT', 'member', m.member_id
    FROM (SELECT DISTINCT (i.value->>'memberId')::integer AS member_id FROM jsonb_array_elements(p_items) i) m
    WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.member_id = m.member_id AND a.asset = 'CREDIT')
      AND EXISTS (SELECT 1 FROM members mm WHERE mm.id = m.member_id)
    ORDER BY m.member_id
    ON CONFLICT (member_id, asset) DO NOTHING;
  RETURN QUERY SELECT e.ord, e.code, e.result, e.set_based FROM ledger_withdraw_existing(p_items, p_payable, p_fees) e;
END $$;
