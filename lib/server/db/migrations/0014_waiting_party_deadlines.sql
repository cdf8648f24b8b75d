ALTER TABLE "disputes" ADD COLUMN "opened_by" text DEFAULT 'seller' NOT NULL;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "declined_refund_due_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "milestones" ADD COLUMN "extension_response_due_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "milestones" ADD COLUMN "dispute_opening_due_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "disputes_awaiting_declined_refund_idx" ON "disputes" USING btree ("declined_refund_due_at") WHERE declined_refund_due_at is not null;--> statement-breakpoint
CREATE INDEX "milestones_awaiting_extension_answer_idx" ON "milestones" USING btree ("extension_response_due_at") WHERE extension_response_due_at is not null;--> statement-breakpoint
CREATE INDEX "milestones_awaiting_dispute_idx" ON "milestones" USING btree ("dispute_opening_due_at") WHERE dispute_opening_due_at is not null;--> statement-breakpoint
-- Money held before these deadlines existed gets the whole notice from the upgrade on: 3 business days
-- are at most 5 calendar days, 10 business days at most 14.
UPDATE "milestones" SET "dispute_opening_due_at" = now() + interval '5 days' WHERE "status" = 'DELIVERY_RETURN_REJECTED';--> statement-breakpoint
UPDATE "disputes" SET "declined_refund_due_at" = now() + interval '14 days' WHERE "status" = 'ARBITRATION_DECLINED';
