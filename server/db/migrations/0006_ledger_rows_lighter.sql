ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_balances";--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_transfer_id_ledger_transfers_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_id_ledger_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_transfers" DROP CONSTRAINT "ledger_transfers_debit_account_id_ledger_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_transfers" DROP CONSTRAINT "ledger_transfers_credit_account_id_ledger_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_transfers" DROP CONSTRAINT "ledger_transfers_withdrawal_id_withdrawals_id_fk";
--> statement-breakpoint
DROP INDEX "ledger_entries_transfer_idx";--> statement-breakpoint
-- Added by hand: entries are the member legs only (ADR 0012); a system account's balance is the sum of its
-- transfers, so its entries go before the balance columns become NOT NULL.
DELETE FROM "ledger_entries" WHERE "account_id" < 1000;--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "previous_balance" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "current_balance" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "account_version" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_member_balance" CHECK ("ledger_entries"."current_balance" = "ledger_entries"."previous_balance" + "ledger_entries"."amount" AND "ledger_entries"."current_balance" >= 0 AND "ledger_entries"."account_version" > 0);