DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "transaction_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "sequence" integer;--> statement-breakpoint
-- Deliveries written before: their event's transaction and sequence, so a resent one keeps its place in order.
UPDATE "webhook_deliveries" d SET "transaction_id" = e."transaction_id", "sequence" = e."sequence" FROM "events" e WHERE e."id" = d."event_id" AND e."transaction_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_fresh_idx" ON "webhook_deliveries" USING btree ("created_at","id") WHERE status = 'pending' and attempts = 0;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_retry_idx" ON "webhook_deliveries" USING btree ("next_attempt_at","id") WHERE status = 'pending' and attempts > 0;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_queue_idx" ON "webhook_deliveries" USING btree ("endpoint_id","transaction_id","sequence") WHERE status = 'pending';