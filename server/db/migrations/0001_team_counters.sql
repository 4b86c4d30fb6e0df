ALTER TABLE "members" ADD COLUMN "team_size" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "direct_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_team_counts_consistent" CHECK ("members"."direct_count" >= 0 AND "members"."team_size" >= "members"."direct_count");--> statement-breakpoint
-- Added by hand below drizzle-kit's statements: the counts of the members that exist already. UNION over
-- (ancestor, member) pairs ends even if a cycle ever slipped into the tree.
WITH RECURSIVE "below"("ancestor_id", "member_id") AS (
	SELECT "recommender_id", "id" FROM "members" WHERE "recommender_id" IS NOT NULL
	UNION
	SELECT "m"."recommender_id", "b"."member_id" FROM "below" "b" JOIN "members" "m" ON "m"."id" = "b"."ancestor_id" WHERE "m"."recommender_id" IS NOT NULL
), "counts" AS (
	SELECT "b"."ancestor_id" AS "id", count(*)::int AS "team_size", count(*) FILTER (WHERE "m"."recommender_id" = "b"."ancestor_id")::int AS "direct_count"
	FROM "below" "b" JOIN "members" "m" ON "m"."id" = "b"."member_id"
	GROUP BY "b"."ancestor_id"
)
UPDATE "members" SET "team_size" = "counts"."team_size", "direct_count" = "counts"."direct_count" FROM "counts" WHERE "members"."id" = "counts"."id";
