CREATE TABLE "tree_joins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"inviter_id" integer NOT NULL,
	"joined" integer NOT NULL,
	"tree_depth" integer NOT NULL,
	"near_ancestors" integer[] NOT NULL,
	"checkpoint_ancestors" integer[] NOT NULL,
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
-- Added by hand below drizzle-kit's statements. A member's ancestor at a depth, from its kept positions
-- (server/members/tree.ts, ADR 0034; 64 is TREE_NEAR): within 64 levels its nearest ancestors name it; at a multiple
-- of 64 its checkpoints do; else the checkpoint just below that depth names it among its own nearest.
CREATE FUNCTION "tree_ancestor_at"("member_depth" integer, "member_near" integer[], "member_checkpoints" integer[], "depth" integer) RETURNS integer LANGUAGE sql STABLE PARALLEL SAFE AS $$
	SELECT CASE
		WHEN $4 < 0 OR $4 >= $1 THEN NULL
		WHEN $1 - $4 <= 64 THEN $2[$1 - $4]
		WHEN $4 % 64 = 0 THEN $3[$4 / 64 + 1]
		ELSE (SELECT c.near_ancestors[($4 / 64 + 1) * 64 - $4] FROM members c WHERE c.id = $3[$4 / 64 + 2])
	END
$$;--> statement-breakpoint
-- Whether a member sits below another: its ancestor at the other's depth is the other.
CREATE FUNCTION "tree_is_below"("ancestor_id" integer, "ancestor_depth" integer, "member_depth" integer, "member_near" integer[], "member_checkpoints" integer[]) RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
	SELECT coalesce(tree_ancestor_at($3, $4, $5, $2) = $1, false)
$$;--> statement-breakpoint
-- The binds waiting for the count fold (tree_joins), summed per ancestor at a depth (server/members/teamCounts.ts):
-- each row names its ancestor there from the position it keeps; the rows that need a checkpoint's nearest are summed
-- per checkpoint first, so each checkpoint is read once whatever the number of rows below it. 64 is TREE_NEAR.
CREATE FUNCTION "tree_waiting_at"("depth" integer) RETURNS TABLE("ancestor_id" integer, "joined" integer) LANGUAGE sql STABLE PARALLEL SAFE AS $$
	WITH waiting AS (
		SELECT j.joined,
			CASE WHEN j.tree_depth - $1 <= 64 THEN j.near_ancestors[j.tree_depth - $1] WHEN $1 % 64 = 0 THEN j.checkpoint_ancestors[$1 / 64 + 1] END AS ancestor,
			CASE WHEN j.tree_depth - $1 > 64 AND $1 % 64 <> 0 THEN j.checkpoint_ancestors[$1 / 64 + 2] END AS via
		FROM tree_joins j WHERE j.tree_depth > $1
	)
	SELECT a.ancestor, sum(a.joined)::int FROM (
		SELECT ancestor, joined FROM waiting WHERE via IS NULL
		UNION ALL
		SELECT (SELECT c.near_ancestors[($1 / 64 + 1) * 64 - $1] FROM members c WHERE c.id = v.via), v.joined
		FROM (SELECT via, sum(joined)::int AS joined FROM waiting WHERE via IS NOT NULL GROUP BY via) v
	) a WHERE a.ancestor IS NOT NULL GROUP BY a.ancestor
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
--> statement-breakpoint
CREATE TABLE "team_counts" (
	"member_id" integer PRIMARY KEY NOT NULL,
	"team_size" integer NOT NULL,
	"direct_count" integer NOT NULL,
	CONSTRAINT "team_counts_consistent" CHECK ("team_counts"."direct_count" >= 0 AND "team_counts"."team_size" >= "team_counts"."direct_count")
);
--> statement-breakpoint
ALTER TABLE "team_counts" ADD CONSTRAINT "team_counts_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Added by hand: the counts move to their own narrow table (the fold writes them in batches), a row for each
-- member with a team.
INSERT INTO "team_counts" ("member_id", "team_size", "direct_count") SELECT id, team_size, direct_count FROM members WHERE team_size > 0 OR direct_count > 0;--> statement-breakpoint
ALTER TABLE "members" DROP CONSTRAINT "members_team_counts_consistent";--> statement-breakpoint
ALTER TABLE "members" DROP COLUMN "team_size";--> statement-breakpoint
ALTER TABLE "members" DROP COLUMN "direct_count";
--> statement-breakpoint
-- Added by hand: the bind of a member without a downline (nearly every bind) in one round trip
-- (server/members/tree.ts bindRecommender, which runs every other bind itself). 'OIL'/'011' are LOOKALIKE_LETTERS
-- and LOOKALIKE_DIGITS as literals, so the plan uses migration 0010's expression index; 4361000002 is
-- MEMBER_TREE_LOCK, taken shared; 64 is TREE_NEAR. 'exclusive' asks the caller to bind under the exclusive lock.
CREATE FUNCTION "tree_bind"("p_member" integer, "p_code" text, "p_alike" text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	v_inviter integer;
	v_matches integer;
	v_recommender integer;
	v_root boolean;
BEGIN
	SELECT id INTO v_inviter FROM members WHERE invite_code = p_code;
	IF v_inviter IS NULL THEN
		SELECT min(id), count(*) INTO v_inviter, v_matches FROM (SELECT id FROM members WHERE translate(invite_code, 'OIL', '011') = p_alike LIMIT 2) a;
		IF v_matches <> 1 THEN RETURN 'inviteCodeUnknown'; END IF;
	END IF;
	IF EXISTS (SELECT 1 FROM members WHERE recommender_id = p_member) THEN RETURN 'exclusive'; END IF;
	PERFORM pg_advisory_xact_lock_shared(4361000002);
	-- In id order, so two members binding to each other wait rather than deadlock.
	IF p_member <= v_inviter THEN
		SELECT recommender_id, is_root INTO v_recommender, v_root FROM members WHERE id = p_member FOR UPDATE;
		PERFORM 1 FROM members WHERE id = v_inviter FOR KEY SHARE;
	ELSE
		PERFORM 1 FROM members WHERE id = v_inviter FOR KEY SHARE;
		SELECT recommender_id, is_root INTO v_recommender, v_root FROM members WHERE id = p_member FOR UPDATE;
	END IF;
	IF v_root IS NULL THEN RAISE EXCEPTION 'member % vanished during bind', p_member; END IF;
	IF v_recommender IS NOT NULL OR v_root THEN RETURN 'alreadyBound'; END IF;
	IF v_inviter = p_member THEN RETURN 'cycle'; END IF;
	-- Someone bound below this member since the first look: its bind needs the exclusive lock.
	IF EXISTS (SELECT 1 FROM members WHERE recommender_id = p_member) THEN RETURN 'exclusive'; END IF;
	WITH placed AS (
		UPDATE members m SET recommender_id = i.id, tree_depth = i.tree_depth + 1,
			near_ancestors = (ARRAY[i.id] || i.near_ancestors)[1:64],
			checkpoint_ancestors = i.checkpoint_ancestors || CASE WHEN i.tree_depth % 64 = 0 THEN ARRAY[i.id] ELSE '{}'::int[] END
		FROM members i WHERE i.id = v_inviter AND m.id = p_member
		RETURNING m.tree_depth, m.near_ancestors, m.checkpoint_ancestors
	)
	INSERT INTO tree_joins (member_id, inviter_id, joined, tree_depth, near_ancestors, checkpoint_ancestors)
	SELECT p_member, v_inviter, 1, tree_depth, near_ancestors, checkpoint_ancestors FROM placed;
	RETURN 'bound';
END
$$;
--> statement-breakpoint
-- Room on each page for the fold's updates to stay on the page (HOT: no index entry written again).
ALTER TABLE "team_counts" SET (fillfactor = 50);
