CREATE TABLE "member_freezes" (
	"member_id" integer PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"frozen_by" text,
	"frozen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops_adjustment_confirmations" (
	"adjustment_id" bigint PRIMARY KEY NOT NULL,
	"confirmed_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops_adjustments" (
	"id" bigint PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"asset" text NOT NULL,
	"amount" bigint NOT NULL,
	"reason" text NOT NULL,
	"request_id" text NOT NULL,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ops_adjustments_amount" CHECK ("ops_adjustments"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "withdrawal_approvals" (
	"withdrawal_id" bigint NOT NULL,
	"operator" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawal_approvals_withdrawal_id_operator_pk" PRIMARY KEY("withdrawal_id","operator")
);
--> statement-breakpoint
ALTER TABLE "withdrawal_failures" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "member_freezes" ADD CONSTRAINT "member_freezes_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops_adjustment_confirmations" ADD CONSTRAINT "ops_adjustment_confirmations_adjustment_id_ops_adjustments_id_fk" FOREIGN KEY ("adjustment_id") REFERENCES "public"."ops_adjustments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops_adjustments" ADD CONSTRAINT "ops_adjustments_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_approvals" ADD CONSTRAINT "withdrawal_approvals_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;