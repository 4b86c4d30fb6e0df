CREATE TABLE "about" (
	"lang" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_config" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_config_single_row" CHECK ("app_config"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "members_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"address" text NOT NULL,
	"invite_code" text NOT NULL,
	"recommender_id" integer,
	"is_root" boolean DEFAULT false NOT NULL,
	"level" integer DEFAULT 0 NOT NULL,
	"credit_balance" bigint DEFAULT 0 NOT NULL,
	"wpos_balance" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "members_address_unique" UNIQUE("address"),
	CONSTRAINT "members_invite_code_unique" UNIQUE("invite_code"),
	CONSTRAINT "members_credit_balance_nonnegative" CHECK ("members"."credit_balance" >= 0),
	CONSTRAINT "members_wpos_balance_nonnegative" CHECK ("members"."wpos_balance" >= 0),
	CONSTRAINT "members_level_nonnegative" CHECK ("members"."level" >= 0),
	CONSTRAINT "members_not_own_recommender" CHECK ("members"."recommender_id" IS NULL OR "members"."recommender_id" <> "members"."id")
);
--> statement-breakpoint
CREATE TABLE "nonces" (
	"value" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" text NOT NULL,
	"lang" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"content" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notices_id_lang_pk" PRIMARY KEY("id","lang")
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"hash" text PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_recommender_id_members_id_fk" FOREIGN KEY ("recommender_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "members_recommender_id_idx" ON "members" USING btree ("recommender_id");--> statement-breakpoint
CREATE INDEX "nonces_expires_at_idx" ON "nonces" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "notices_lang_published_at_idx" ON "notices" USING btree ("lang","published_at");--> statement-breakpoint
CREATE INDEX "tokens_member_id_idx" ON "tokens" USING btree ("member_id");