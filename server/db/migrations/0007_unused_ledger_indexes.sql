DROP INDEX "ledger_transfers_withdrawal_idx";--> statement-breakpoint
DROP INDEX "withdrawals_member_created_idx";