CREATE TABLE "ops_approvals" (
	"act" text NOT NULL,
	"target" text NOT NULL,
	"operator" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ops_approvals_act_target_operator_pk" PRIMARY KEY("act","target","operator")
);
--> statement-breakpoint
CREATE TABLE "ops_policy_usage" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ops_policy_usage_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"act" text NOT NULL,
	"operator" text NOT NULL,
	"member_id" integer,
	"amount" bigint NOT NULL,
	"confirmed_by" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "ops_policy_usage_amount" CHECK ("ops_policy_usage"."amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_system_unbalanced";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "funded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "ops_policy_usage_operator_idx" ON "ops_policy_usage" USING btree ("act","operator","at");--> statement-breakpoint
CREATE INDEX "ops_policy_usage_member_idx" ON "ops_policy_usage" USING btree ("act","member_id","at");--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_funded_nonnegative" CHECK (NOT "ledger_accounts"."funded" OR ("ledger_accounts"."member_id" IS NULL AND "ledger_accounts"."balance" >= 0));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_system_unbalanced" CHECK ("ledger_accounts"."member_id" IS NOT NULL OR "ledger_accounts"."funded" OR ("ledger_accounts"."balance" = 0 AND "ledger_accounts"."version" = 0));--> statement-breakpoint
-- The share pools' WPOS (15) and the exchange's CREDIT (4) now pay only what was put in. What they paid before
-- beyond what came in was created money: it is recorded as funded from issuance (1, 11), so the kept balance is the
-- sum of the account's transfers and starts at zero or above.
INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, memo, created_at)
SELECT a.asset, 'funding', CASE a.asset WHEN 'CREDIT' THEN 1 ELSE 11 END, a.id, -n.net, 'funded: paid before the account was funded', now()
FROM ledger_accounts a
CROSS JOIN LATERAL (
  SELECT coalesce((SELECT sum(t.amount) FROM ledger_transfers t WHERE t.credit_account_id = a.id), 0)
    - coalesce((SELECT sum(t.amount) FROM ledger_transfers t WHERE t.debit_account_id = a.id), 0) AS net
) n
WHERE a.id IN (4, 15) AND n.net < 0;--> statement-breakpoint
UPDATE ledger_accounts a SET funded = true, balance = coalesce((SELECT sum(t.amount) FROM ledger_transfers t WHERE t.credit_account_id = a.id), 0)
  - coalesce((SELECT sum(t.amount) FROM ledger_transfers t WHERE t.debit_account_id = a.id), 0)
WHERE a.id IN (4, 15);
