CREATE TABLE "tree_joins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"inviter_id" integer NOT NULL,
	"joined" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "members_recommender_id_idx";--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "tree_depth" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "near_ancestors" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "checkpoint_ancestors" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "tree_joins" ADD CONSTRAINT "tree_joins_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tree_joins" ADD CONSTRAINT "tree_joins_inviter_id_members_id_fk" FOREIGN KEY ("inviter_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "members_recommender_id_idx" ON "members" USING btree ("recommender_id","id");--> statement-breakpoint
-- Added by hand below drizzle-kit's statements. Whether a member sits below another, from the member's kept
-- positions (server/members/tree.ts, ADR 0034): 64 is TREE_NEAR. Within 64 levels the nearest ancestors name it;
-- at a multiple of 64 the checkpoints do; else the checkpoint just below it names it among its own nearest.
CREATE FUNCTION "tree_is_below"("ancestor_id" integer, "ancestor_depth" integer, "member_depth" integer, "member_near" integer[], "member_checkpoints" integer[]) RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
	SELECT CASE
		WHEN $3 <= $2 THEN false
		WHEN $3 - $2 <= 64 THEN coalesce($4[$3 - $2] = $1, false)
		WHEN $2 % 64 = 0 THEN coalesce($5[$2 / 64 + 1] = $1, false)
		ELSE coalesce((SELECT c.near_ancestors[($2 / 64 + 1) * 64 - $2] = $1 FROM members c WHERE c.id = $5[$2 / 64 + 2]), false)
	END
$$;--> statement-breakpoint
-- The positions of the members that exist already, top down from every member without a recommender. A member in a
-- cycle (binding forbids them) is never reached and keeps the defaults.
WITH RECURSIVE placed(id, depth, near, checkpoints) AS (
	SELECT id, 0, '{}'::int[], '{}'::int[] FROM members WHERE recommender_id IS NULL
	UNION ALL
	SELECT c.id, p.depth + 1, (ARRAY[p.id] || p.near)[1:64], p.checkpoints || CASE WHEN p.depth % 64 = 0 THEN ARRAY[p.id] ELSE '{}'::int[] END
	FROM placed p JOIN members c ON c.recommender_id = p.id
)
UPDATE members m SET tree_depth = p.depth, near_ancestors = p.near, checkpoint_ancestors = p.checkpoints FROM placed p WHERE m.id = p.id AND p.depth > 0;
--> statement-breakpoint
-- The closure table gives way to the positions above (ADR 0034): a row per ancestor for every bind does not scale to deep trees.
DROP TABLE "member_tree" CASCADE;
