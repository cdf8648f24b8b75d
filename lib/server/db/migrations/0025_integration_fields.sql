ALTER TABLE "milestones" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "external_reference" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "fee_basis_points" integer;--> statement-breakpoint
UPDATE "transactions" t SET "fee_basis_points" = coalesce((SELECT min(m."rate_used_basis_points") FROM "milestones" m WHERE m."transaction_id" = t."id"), (SELECT c."fee_basis_points" FROM "clients" c WHERE c."id" = t."client_id"));--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "fee_basis_points" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_client_external_reference_idx" ON "transactions" USING btree ("client_id","external_reference");