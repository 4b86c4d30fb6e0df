CREATE TABLE "unknown_payments" (
	"hash" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"payer" text NOT NULL,
	"nonce" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"kind" text NOT NULL,
	"to_address" text,
	"token_amount" text,
	"amount" bigint NOT NULL,
	"named_withdrawal_id" bigint,
	"member_id" integer,
	"found_at" timestamp with time zone NOT NULL,
	"found_by" text,
	"settlement" text,
	"settled_at" timestamp with time zone,
	"settled_by" text,
	"settle_reason" text
);
--> statement-breakpoint
ALTER TABLE "unknown_payments" ADD CONSTRAINT "unknown_payments_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "unknown_payments_payer_nonce_idx" ON "unknown_payments" USING btree ("payer","nonce");--> statement-breakpoint
CREATE INDEX "unknown_payments_open_idx" ON "unknown_payments" USING btree ("found_at") WHERE "unknown_payments"."settled_at" IS NULL;--> statement-breakpoint
-- What operators write off of an unknown payment (the house's loss) is recorded against write_offs, which, like the
-- issuance accounts, may go below zero: CREDIT 9, WPOS 19 (server/ledger/accounts.ts).
INSERT INTO "ledger_accounts" ("id", "asset", "kind", "funded") VALUES (9, 'CREDIT', 'write_offs', false), (19, 'WPOS', 'write_offs', false)
ON CONFLICT DO NOTHING;
