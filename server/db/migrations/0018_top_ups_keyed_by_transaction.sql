ALTER TABLE "top_up_releases" RENAME COLUMN "log_index" TO "log_position";--> statement-breakpoint
ALTER TABLE "top_ups" RENAME COLUMN "log_index" TO "log_position";--> statement-breakpoint
ALTER TABLE "top_up_releases" DROP CONSTRAINT "top_up_releases_chain_id_tx_hash_log_index_pk";--> statement-breakpoint
ALTER TABLE "top_ups" DROP CONSTRAINT "top_ups_chain_id_tx_hash_log_index_pk";--> statement-breakpoint
ALTER TABLE "top_up_releases" ADD CONSTRAINT "top_up_releases_chain_id_tx_hash_log_position_pk" PRIMARY KEY("chain_id","tx_hash","log_position");--> statement-breakpoint
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_chain_id_tx_hash_log_position_pk" PRIMARY KEY("chain_id","tx_hash","log_position");--> statement-breakpoint
ALTER TABLE "top_ups" ADD COLUMN "block_hash" text;--> statement-breakpoint
ALTER TABLE "top_ups" ADD COLUMN "reorged_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "top_ups_block_idx" ON "top_ups" USING btree ("chain_id","block_number");--> statement-breakpoint
CREATE INDEX "top_ups_reorged_idx" ON "top_ups" USING btree ("chain_id") WHERE "top_ups"."reorged_at" IS NOT NULL;--> statement-breakpoint
-- Added by hand below drizzle-kit's statements: the rows credited before this migration were keyed by the log's
-- index in its block, and their position within the transaction cannot be known from the database (the block's
-- other logs are not kept). They keep that key, as -1 - the index, so no new position (0 and up) ever equals one;
-- the watcher counts a transaction with such a row as credited whole (server/chain/topUps.ts), so reading its
-- block again, even at other indexes after a reorganisation, credits nothing twice. Releases keep the same key.
UPDATE "top_ups" SET "log_position" = -1 - "log_position";--> statement-breakpoint
UPDATE "top_up_releases" SET "log_position" = -1 - "log_position";
