-- The ledger engine (ADR 0014): the daily withdrawal totals become rows of ledger_limits (a named limit per member
-- and UTC day), and the batch functions of migrations 0005, 0008 and 0009 give way to server/ledger/engine.sql,
-- which database.migrate() applies as a whole after the migrations.
CREATE TABLE "ledger_limits" (
	"member_id" integer NOT NULL,
	"name" text NOT NULL,
	"day" date NOT NULL,
	"total" bigint NOT NULL,
	CONSTRAINT "ledger_limits_member_id_name_day_pk" PRIMARY KEY("member_id","name","day"),
	CONSTRAINT "ledger_limits_total_nonnegative" CHECK ("ledger_limits"."total" >= 0)
);
--> statement-breakpoint
INSERT INTO "ledger_limits" ("member_id", "name", "day", "total") SELECT "member_id", 'withdrawCredit', "day", "total" FROM "withdrawal_days";--> statement-breakpoint
DROP TABLE "withdrawal_days" CASCADE;--> statement-breakpoint
ALTER TABLE "ledger_limits" ADD CONSTRAINT "ledger_limits_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
DROP FUNCTION IF EXISTS ledger_withdraw_batch(jsonb, integer, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS ledger_withdraw_existing(jsonb, integer, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS ledger_withdraw_items(jsonb, integer, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS ledger_debit_member(text, text, integer, integer, bigint, bigint, text, timestamptz);--> statement-breakpoint
DROP FUNCTION IF EXISTS ledger_credit_member(text, text, integer, integer, bigint, bigint, text, timestamptz);--> statement-breakpoint
DROP FUNCTION IF EXISTS ledger_move_system(text, text, integer, integer, bigint, bigint, timestamptz);--> statement-breakpoint
DROP FUNCTION IF EXISTS idempotency_open(text, text, text, text);--> statement-breakpoint
DROP FUNCTION IF EXISTS idempotency_store(text, text, text, text, integer, jsonb, timestamptz);--> statement-breakpoint
DROP FUNCTION IF EXISTS money_minor(text);
