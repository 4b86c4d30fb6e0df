CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"actor_address" text,
	"actor_roles" text[] NOT NULL,
	"via" text NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"before" jsonb,
	"after" jsonb,
	"request_id" text,
	"client_address" text
);
--> statement-breakpoint
CREATE TABLE "operator_api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"roles" text[] NOT NULL,
	"hash" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "operator_api_keys_hash_unique" UNIQUE("hash"),
	CONSTRAINT "operator_api_keys_roles_known" CHECK (cardinality("operator_api_keys"."roles") > 0 AND "operator_api_keys"."roles" <@ ARRAY['finance', 'support', 'content', 'admin']::text[])
);
--> statement-breakpoint
CREATE TABLE "operator_nonces" (
	"value" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"hash" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"address" text PRIMARY KEY NOT NULL,
	"roles" text[] NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	"added_by" text,
	"removed_at" timestamp with time zone,
	CONSTRAINT "operators_roles_known" CHECK (cardinality("operators"."roles") > 0 AND "operators"."roles" <@ ARRAY['finance', 'support', 'content', 'admin']::text[])
);
--> statement-breakpoint
ALTER TABLE "operator_api_keys" ADD CONSTRAINT "operator_api_keys_created_by_operators_address_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("address") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_address_operators_address_fk" FOREIGN KEY ("address") REFERENCES "public"."operators"("address") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_address","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target","id");--> statement-breakpoint
CREATE INDEX "operator_api_keys_created_by_idx" ON "operator_api_keys" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "operator_nonces_expires_at_idx" ON "operator_nonces" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "operator_sessions_address_idx" ON "operator_sessions" USING btree ("address");--> statement-breakpoint
-- Written by hand after drizzle-kit's tables (a snapshot knows no triggers): the audit log is append-only in the
-- database itself, so no code path of the app, nor a query typed by hand on its connection, can change or erase
-- history. Statement-level, so even an UPDATE or DELETE that matches no row is refused.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
