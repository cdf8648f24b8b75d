CREATE TABLE "dashboard_client_keys" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"secret_key" text NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dashboard_accounts" DROP CONSTRAINT "dashboard_accounts_role_link";--> statement-breakpoint
ALTER TABLE "dashboard_accounts" ALTER COLUMN "client_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "client_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "dashboard_accounts" ADD COLUMN "removed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "dashboard_client_keys" ADD CONSTRAINT "dashboard_client_keys_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_accounts" ADD CONSTRAINT "dashboard_accounts_role_link" CHECK (("dashboard_accounts"."role" in ('admin', 'viewer') and "dashboard_accounts"."client_id" is not null and "dashboard_accounts"."escrow_user_id" is null) or ("dashboard_accounts"."role" = 'customer' and "dashboard_accounts"."client_id" is not null and "dashboard_accounts"."escrow_user_id" is not null) or ("dashboard_accounts"."role" = 'dispute_team' and "dashboard_accounts"."escrow_user_id" is null) or ("dashboard_accounts"."role" = 'operator' and "dashboard_accounts"."client_id" is null and "dashboard_accounts"."escrow_user_id" is null));--> statement-breakpoint
-- The demo client's key, kept sealed in app_settings until now, moves to the per-client store (still sealed, for the same purpose).
INSERT INTO "dashboard_client_keys" ("client_id", "secret_key", "updated_at")
SELECT ("value"->>'client_id')::uuid, "value"->>'secret_key', "updated_at" FROM "app_settings"
WHERE "key" = 'dashboard_client' AND "value"->>'secret_key' IS NOT NULL AND EXISTS (SELECT 1 FROM "clients" WHERE "clients"."id" = ("app_settings"."value"->>'client_id')::uuid)
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "app_settings" SET "value" = "value" - 'secret_key' WHERE "key" = 'dashboard_client';--> statement-breakpoint
-- Until now a dispute-team member other than the demo's served every client: that is now client_id null.
UPDATE "dashboard_accounts" SET "client_id" = NULL WHERE "role" = 'dispute_team' AND "email" <> 'disputes@demo.escrowdesk.ng';
