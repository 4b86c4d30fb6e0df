CREATE TABLE "delivery_addresses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "delivery_addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"member_id" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"region" text NOT NULL,
	"detail" text NOT NULL,
	"is_default" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goods" (
	"id" text PRIMARY KEY NOT NULL,
	"name_zh" text NOT NULL,
	"name_en" text NOT NULL,
	"image" text NOT NULL,
	"price" bigint NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "goods_price" CHECK ("goods"."price" > 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"available" bigint NOT NULL,
	CONSTRAINT "ledger_counters_available" CHECK ("ledger_counters"."available" >= 0)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"member_id" integer NOT NULL,
	"goods_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'paid' NOT NULL,
	"address" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_amounts" CHECK ("orders"."quantity" BETWEEN 1 AND 999 AND "orders"."amount" > 0),
	CONSTRAINT "orders_status" CHECK ("orders"."status" IN ('pending', 'paid', 'shipped', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "delivery_addresses" ADD CONSTRAINT "delivery_addresses_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_goods_id_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_addresses_member_idx" ON "delivery_addresses" USING btree ("member_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_addresses_one_default" ON "delivery_addresses" USING btree ("member_id") WHERE "delivery_addresses"."is_default";--> statement-breakpoint
CREATE INDEX "goods_position_idx" ON "goods" USING btree ("position","id");--> statement-breakpoint
CREATE INDEX "orders_member_idx" ON "orders" USING btree ("member_id","id");--> statement-breakpoint
-- API.md: "exactly one default whenever a member has any", and at most 20 addresses. The partial unique index above
-- allows at most one default; this trigger, checked at commit (so a change of default may pass through a moment
-- with none), refuses a member with addresses but no default, and a 21st address.
CREATE FUNCTION delivery_addresses_check_member() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_member integer := coalesce(NEW.member_id, OLD.member_id);
  v_count integer;
  v_defaults integer;
BEGIN
  SELECT count(*), count(*) FILTER (WHERE is_default) INTO v_count, v_defaults FROM delivery_addresses WHERE member_id = v_member;
  IF v_count > 0 AND v_defaults <> 1 THEN
    RAISE EXCEPTION 'member % has % shipping addresses and % defaults', v_member, v_count, v_defaults USING ERRCODE = 'check_violation';
  END IF;
  IF v_count > 20 THEN
    RAISE EXCEPTION 'member % has % shipping addresses (at most 20)', v_member, v_count USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER delivery_addresses_member_rules AFTER INSERT OR UPDATE OR DELETE ON delivery_addresses
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION delivery_addresses_check_member();
