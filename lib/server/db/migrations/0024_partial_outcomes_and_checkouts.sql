CREATE TABLE "checkouts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"user_id" uuid NOT NULL,
	"wallet_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"milestone_id" uuid,
	"transaction_id" uuid,
	"amount_kobo" bigint NOT NULL,
	"status" text NOT NULL,
	"authorization_url" text NOT NULL,
	"callback_url" text,
	"applied" boolean,
	"not_applied_reason" text,
	"channel" text,
	"failure_reason" text,
	"provider" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"verify_due_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp (3) with time zone,
	"failed_at" timestamp (3) with time zone,
	"expired_at" timestamp (3) with time zone,
	CONSTRAINT "checkouts_reference_unique" UNIQUE("reference"),
	CONSTRAINT "checkouts_one_purpose" CHECK (("checkouts"."purpose" = 'milestone') = ("checkouts"."milestone_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD COLUMN "checkout_id" uuid;--> statement-breakpoint
ALTER TABLE "milestones" ADD COLUMN "amount_refunded_kobo" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "milestones" ADD COLUMN "amount_released_kobo" bigint;--> statement-breakpoint
ALTER TABLE "milestones" ADD COLUMN "partial_acceptance" jsonb;--> statement-breakpoint
ALTER TABLE "milestones" ADD COLUMN "partial_acceptance_response_due_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "provider_events" ADD COLUMN "checkout_id" uuid;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkouts_client_created_idx" ON "checkouts" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "checkouts_user_created_idx" ON "checkouts" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "checkouts_pending_expiry_idx" ON "checkouts" USING btree ("client_id","expires_at") WHERE "checkouts"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "checkouts_verify_due_idx" ON "checkouts" USING btree ("verify_due_at") WHERE "checkouts"."status" = 'PENDING' and "checkouts"."verify_due_at" is not null;--> statement-breakpoint
CREATE INDEX "milestones_awaiting_partial_acceptance_idx" ON "milestones" USING btree ("client_id","partial_acceptance_response_due_at") WHERE partial_acceptance_response_due_at is not null;--> statement-breakpoint
-- Every milestone completed before partial acceptance existed paid its seller the price in full (docs/decisions.md §17).
UPDATE "milestones" SET "amount_released_kobo" = "amount_kobo" WHERE "status" = 'COMPLETED' AND "amount_released_kobo" IS NULL;
