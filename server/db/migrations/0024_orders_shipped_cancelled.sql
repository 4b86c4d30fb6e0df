ALTER TABLE "orders" DROP CONSTRAINT "orders_status";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status","id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_shipped" CHECK (("orders"."status" = 'shipped') = ("orders"."shipped_at" IS NOT NULL AND "orders"."carrier" IS NOT NULL AND "orders"."tracking_number" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cancelled" CHECK (("orders"."status" = 'cancelled') = ("orders"."cancelled_at" IS NOT NULL AND "orders"."cancel_reason" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status" CHECK ("orders"."status" IN ('pending', 'paid', 'shipped', 'failed', 'cancelled'));