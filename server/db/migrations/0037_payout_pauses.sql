CREATE TABLE "payout_pauses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"causes" jsonb NOT NULL,
	"paused_at" timestamp with time zone NOT NULL,
	"resumed_at" timestamp with time zone,
	"resumed_by" text,
	"confirmed_by" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payout_pauses_open_idx" ON "payout_pauses" USING btree (("resumed_at" IS NULL)) WHERE "payout_pauses"."resumed_at" IS NULL;