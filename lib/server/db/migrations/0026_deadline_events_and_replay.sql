ALTER TABLE "events" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "replay" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "events_dedupe_key_idx" ON "events" USING btree ("dedupe_key") WHERE dedupe_key is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_replay_idx" ON "webhook_deliveries" USING btree ("endpoint_id") WHERE status = 'pending' and replay;