-- Every system account but the issuance ones (CREDIT 1 issuance, 7 chain; WPOS 11 issuance, 14 exchange) keeps its
-- balance, which the engine never takes below zero: fees, withdrawals payable, sales and held top-ups join the pools
-- and the exchange's CREDIT (migration 0026). Anything one of them paid beyond what came in is recorded as funded from
-- its asset's issuance, so the kept balance is the sum of the account's transfers and starts at zero or above.
INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, memo, created_at)
SELECT a.asset, 'funding', CASE a.asset WHEN 'CREDIT' THEN 1 ELSE 11 END, a.id, -n.net, 'funded: paid before the account kept its balance', now()
FROM ledger_accounts a
CROSS JOIN LATERAL (
  SELECT coalesce((SELECT sum(t.amount) FROM ledger_transfers t WHERE t.credit_account_id = a.id), 0)
    - coalesce((SELECT sum(t.amount) FROM ledger_transfers t WHERE t.debit_account_id = a.id), 0) AS net
) n
WHERE a.member_id IS NULL AND NOT a.funded AND a.id NOT IN (1, 7, 11, 14) AND n.net < 0;--> statement-breakpoint
UPDATE ledger_accounts a SET funded = true, balance = coalesce((SELECT sum(t.amount) FROM ledger_transfers t WHERE t.credit_account_id = a.id), 0)
  - coalesce((SELECT sum(t.amount) FROM ledger_transfers t WHERE t.debit_account_id = a.id), 0)
WHERE a.member_id IS NULL AND NOT a.funded AND a.id NOT IN (1, 7, 11, 14);
