CREATE TABLE "dashboard_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"client_id" uuid NOT NULL,
	"escrow_user_id" uuid,
	"password_hash" text,
	"last_signed_in_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dashboard_accounts_role_link" CHECK (("dashboard_accounts"."role" = 'admin' and "dashboard_accounts"."escrow_user_id" is null) or ("dashboard_accounts"."role" = 'customer' and "dashboard_accounts"."escrow_user_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "dashboard_invites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" uuid,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dashboard_invites_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "dashboard_invites" ADD CONSTRAINT "dashboard_invites_account_id_dashboard_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."dashboard_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_invites" ADD CONSTRAINT "dashboard_invites_created_by_dashboard_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."dashboard_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dashboard_accounts_email_idx" ON "dashboard_accounts" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "dashboard_accounts_escrow_user_idx" ON "dashboard_accounts" USING btree ("client_id","escrow_user_id");--> statement-breakpoint
CREATE INDEX "dashboard_invites_account_idx" ON "dashboard_invites" USING btree ("account_id");