DROP INDEX "milestones_awaiting_deadline_idx";--> statement-breakpoint
CREATE INDEX "milestones_inspection_due_idx" ON "milestones" USING btree ("client_id","inspection_end_date") WHERE status = 'UNDER_INSPECTION';--> statement-breakpoint
CREATE INDEX "milestones_return_due_idx" ON "milestones" USING btree ("client_id","return_deadline_date") WHERE status = 'DELIVERY_RETURNED_AWAITING_APPROVAL';