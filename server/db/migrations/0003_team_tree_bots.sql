-- Added by hand above drizzle-kit's statements: the function behind members.address_grams (every 4-character
-- window of the lower-case hex digits, sorted, without repeats), which must exist before the column.
CREATE FUNCTION "member_address_grams"("address" text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
	SELECT ARRAY(SELECT DISTINCT substr(lower(substr($1, 3)), "i", 4) AS "gram" FROM generate_series(1, length($1) - 5) AS "i" ORDER BY "gram")
$$;--> statement-breakpoint
CREATE TABLE "bots" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"profit_rate" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bots_status_known" CHECK ("bots"."status" IN ('running', 'paused', 'stopped'))
);
--> statement-breakpoint
CREATE TABLE "member_tree" (
	"ancestor_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"depth" integer NOT NULL,
	CONSTRAINT "member_tree_ancestor_id_depth_member_id_pk" PRIMARY KEY("ancestor_id","depth","member_id"),
	CONSTRAINT "member_tree_depth_positive" CHECK ("member_tree"."depth" >= 1)
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "address_grams" text[] GENERATED ALWAYS AS (member_address_grams(address)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "member_tree" ADD CONSTRAINT "member_tree_ancestor_id_members_id_fk" FOREIGN KEY ("ancestor_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_tree" ADD CONSTRAINT "member_tree_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bots_created_at_idx" ON "bots" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "member_tree_member_ancestor_idx" ON "member_tree" USING btree ("member_id","ancestor_id");--> statement-breakpoint
CREATE INDEX "members_address_grams_idx" ON "members" USING gin ("address_grams") WITH (fastupdate=false);--> statement-breakpoint
-- Added by hand below drizzle-kit's statements: the tree rows of the members that exist already. No path is longer
-- than the number of members, which ends the walk even if a cycle ever slipped into the tree.
INSERT INTO "member_tree" ("ancestor_id", "member_id", "depth")
WITH RECURSIVE "below"("ancestor_id", "member_id", "depth") AS (
	SELECT "recommender_id", "id", 1 FROM "members" WHERE "recommender_id" IS NOT NULL
	UNION
	SELECT "m"."recommender_id", "b"."member_id", "b"."depth" + 1 FROM "below" "b" JOIN "members" "m" ON "m"."id" = "b"."ancestor_id"
	WHERE "m"."recommender_id" IS NOT NULL AND "b"."depth" < (SELECT count(*) FROM "members")
)
SELECT "ancestor_id", "member_id", min("depth") FROM "below" GROUP BY "ancestor_id", "member_id";
