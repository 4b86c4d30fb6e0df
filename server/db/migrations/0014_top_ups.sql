CREATE TABLE "chain_blocks" (
	"chain_id" integer NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "chain_blocks_chain_id_number_pk" PRIMARY KEY("chain_id","number")
);
--> statement-breakpoint
CREATE TABLE "top_up_releases" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"member_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "top_up_releases_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "top_ups" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"from_address" text NOT NULL,
	"member_id" integer,
	"amount" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "top_ups_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index"),
	CONSTRAINT "top_ups_amount" CHECK ("top_ups"."amount" > 0)
);
--> statement-breakpoint
CREATE INDEX "top_ups_held_idx" ON "top_ups" USING btree ("from_address") WHERE "top_ups"."member_id" IS NULL;--> statement-breakpoint
-- Added by hand below drizzle-kit's statements: the system accounts of credit on chain (fixed ids,
-- server/ledger/accounts.ts; the seed creates them too). `chain` is the token the treasury holds for the members
-- (a top-up moves from it to the member), `held_top_ups` what was sent by addresses that are no member yet.
INSERT INTO "ledger_accounts" ("id", "asset", "kind") VALUES
	(7, 'CREDIT', 'chain'), (8, 'CREDIT', 'held_top_ups'), (17, 'WPOS', 'chain'), (18, 'WPOS', 'held_top_ups')
ON CONFLICT DO NOTHING;
