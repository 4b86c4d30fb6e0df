CREATE TABLE "share_pool_shares" (
	"pool_id" integer NOT NULL,
	"day" date NOT NULL,
	"member_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "share_pool_shares_pool_id_day_member_id_pk" PRIMARY KEY("pool_id","day","member_id"),
	CONSTRAINT "share_pool_shares_amount" CHECK ("share_pool_shares"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "share_pool_payouts" ADD COLUMN "remaining" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "share_pool_payouts" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
-- Every payout before this migration paid all its holders in one transaction.
UPDATE "share_pool_payouts" SET "completed_at" = "created_at";--> statement-breakpoint
ALTER TABLE "share_pool_payouts" ADD CONSTRAINT "share_pool_payouts_remaining" CHECK ("share_pool_payouts"."remaining" BETWEEN 0 AND "share_pool_payouts"."holders" AND ("share_pool_payouts"."remaining" = 0) = ("share_pool_payouts"."completed_at" IS NOT NULL));