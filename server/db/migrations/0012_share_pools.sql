-- Share pools (API.md "WPOS"): the seeded pools and one row per pool and UTC day that paid, the payout's business row
-- that the ledger engine writes with its transfers (server/ledger/sharePools.ts).
CREATE TABLE "share_pool_payouts" (
	"pool_id" integer NOT NULL,
	"day" date NOT NULL,
	"paid" bigint NOT NULL,
	"holders" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "share_pool_payouts_pool_id_day_pk" PRIMARY KEY("pool_id","day"),
	CONSTRAINT "share_pool_payouts_paid" CHECK ("share_pool_payouts"."paid" > 0 AND "share_pool_payouts"."holders" > 0)
);
--> statement-breakpoint
CREATE TABLE "share_pools" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"total_amount" bigint NOT NULL,
	"min_holding" bigint NOT NULL,
	CONSTRAINT "share_pools_name_unique" UNIQUE("name"),
	CONSTRAINT "share_pools_amounts" CHECK ("share_pools"."total_amount" > 0 AND "share_pools"."min_holding" >= 0)
);
--> statement-breakpoint
ALTER TABLE "share_pool_payouts" ADD CONSTRAINT "share_pool_payouts_pool_id_share_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."share_pools"("id") ON DELETE no action ON UPDATE no action;