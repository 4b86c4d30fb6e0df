CREATE TABLE "operator_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"address" text NOT NULL,
	"roles" text[],
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"confirmed_by" text,
	"confirmed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "operator_changes_kind" CHECK (("operator_changes"."kind" = 'put' AND "operator_changes"."roles" IS NOT NULL) OR ("operator_changes"."kind" = 'remove' AND "operator_changes"."roles" IS NULL)),
	CONSTRAINT "operator_changes_roles_known" CHECK ("operator_changes"."roles" IS NULL OR (cardinality("operator_changes"."roles") > 0 AND "operator_changes"."roles" <@ ARRAY['finance', 'support', 'content', 'admin']::text[])),
	CONSTRAINT "operator_changes_decided_once" CHECK ("operator_changes"."confirmed_at" IS NULL OR "operator_changes"."cancelled_at" IS NULL),
	CONSTRAINT "operator_changes_confirmed" CHECK (("operator_changes"."confirmed_by" IS NULL) = ("operator_changes"."confirmed_at" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "operator_changes" ADD CONSTRAINT "operator_changes_requested_by_operators_address_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."operators"("address") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_changes" ADD CONSTRAINT "operator_changes_confirmed_by_operators_address_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."operators"("address") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_changes_waiting_idx" ON "operator_changes" USING btree ("id") WHERE "operator_changes"."confirmed_at" IS NULL AND "operator_changes"."cancelled_at" IS NULL;