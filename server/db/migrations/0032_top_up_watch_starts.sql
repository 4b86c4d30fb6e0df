CREATE TABLE "top_up_watch_starts" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"first_cursor" bigint NOT NULL
);
--> statement-breakpoint
-- A watcher that ran before this migration: its oldest kept block is the earliest start still known.
INSERT INTO "top_up_watch_starts" ("chain_id", "first_cursor") SELECT chain_id, min(number) FROM chain_blocks GROUP BY chain_id ON CONFLICT DO NOTHING;
