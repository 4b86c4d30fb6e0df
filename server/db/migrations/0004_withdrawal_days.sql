CREATE TABLE "withdrawal_days" (
	"member_id" integer NOT NULL,
	"day" date NOT NULL,
	"total" bigint NOT NULL,
	CONSTRAINT "withdrawal_days_member_id_day_pk" PRIMARY KEY("member_id","day"),
	CONSTRAINT "withdrawal_days_total_nonnegative" CHECK ("withdrawal_days"."total" >= 0)
);
--> statement-breakpoint
ALTER TABLE "withdrawal_days" ADD CONSTRAINT "withdrawal_days_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Added by hand below drizzle-kit's statements: the totals of the withdrawals that exist already.
INSERT INTO "withdrawal_days" ("member_id", "day", "total")
SELECT "member_id", ("created_at" AT TIME ZONE 'UTC')::date, sum("amount") FROM "withdrawals" WHERE "status" <> 'failed'
GROUP BY "member_id", ("created_at" AT TIME ZONE 'UTC')::date;
