CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"key_hash" text NOT NULL,
	"last4" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
-- Each existing client's one key moves over, hash and last 4 as they were, with no expiry (hand-written: drizzle-kit
-- generates no data moves).
INSERT INTO "api_keys" ("id", "client_id", "key_hash", "last4", "created_at")
	SELECT gen_random_uuid(), "id", "secret_key_hash", "secret_key_last4", "created_at" FROM "clients";--> statement-breakpoint
ALTER TABLE "clients" DROP CONSTRAINT "clients_secret_key_hash_unique";--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_client_idx" ON "api_keys" USING btree ("client_id","created_at");--> statement-breakpoint
ALTER TABLE "clients" DROP COLUMN "secret_key_hash";--> statement-breakpoint
ALTER TABLE "clients" DROP COLUMN "secret_key_last4";