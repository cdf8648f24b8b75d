CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"user_id" uuid NOT NULL,
	"wallet_id" uuid NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"bank_code" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"status" text NOT NULL,
	"failure_reason" text,
	"provider" text NOT NULL,
	"provider_reference" text,
	"milestone_id" uuid,
	"sent_at" timestamp (3) with time zone,
	"due_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp (3) with time zone,
	"failed_at" timestamp (3) with time zone,
	"reversed_at" timestamp (3) with time zone,
	CONSTRAINT "payouts_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_key" text NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"amount_kobo" bigint,
	"client_id" uuid,
	"payout_id" uuid,
	"wallet_id" uuid,
	"ledger_transfer_id" uuid,
	"data" jsonb NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "name_matches" boolean;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "removed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "payouts_account_id" uuid;--> statement-breakpoint
-- Each existing client gets its payouts-in-flight ledger account (decisions §11), then the column is required.
UPDATE "clients" SET "payouts_account_id" = gen_random_uuid();--> statement-breakpoint
INSERT INTO "ledger_accounts" ("id", "client_id", "kind", "balance_kobo", "created_at", "updated_at")
  SELECT "payouts_account_id", "id", 'payouts_in_flight', 0, now(), now() FROM "clients";--> statement-breakpoint
ALTER TABLE "clients" ALTER COLUMN "payouts_account_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "auto_payout" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD COLUMN "payout_id" uuid;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "provider_account" jsonb;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_client_created_idx" ON "payouts" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payouts_user_created_idx" ON "payouts" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payouts_due_idx" ON "payouts" USING btree ("due_at") WHERE "payouts"."status" in ('PENDING', 'PROCESSING');--> statement-breakpoint
CREATE UNIQUE INDEX "provider_events_key_idx" ON "provider_events" USING btree ("provider","event_key");--> statement-breakpoint
CREATE INDEX "provider_events_received_idx" ON "provider_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "ledger_transfers_payout_idx" ON "ledger_transfers" USING btree ("payout_id") WHERE "ledger_transfers"."payout_id" is not null;