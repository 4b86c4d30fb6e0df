ALTER TABLE "withdrawals" ALTER COLUMN "member_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "to_address" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "top_up_tx_hash" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "top_up_log_position" integer;--> statement-breakpoint
CREATE INDEX "withdrawals_top_up_idx" ON "withdrawals" USING btree ("top_up_tx_hash","top_up_log_position") WHERE "withdrawals"."top_up_tx_hash" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_payee" CHECK (("withdrawals"."member_id" IS NULL) = ("withdrawals"."to_address" IS NOT NULL) AND ("withdrawals"."to_address" IS NULL) = ("withdrawals"."top_up_tx_hash" IS NULL) AND ("withdrawals"."top_up_tx_hash" IS NULL) = ("withdrawals"."top_up_log_position" IS NULL));