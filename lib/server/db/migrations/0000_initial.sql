CREATE TABLE "app_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"wallet_id" uuid NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"bank_code" text NOT NULL,
	"pga_transfer_recipient" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"mode" text NOT NULL,
	"public_key" text NOT NULL,
	"secret_key_hash" text NOT NULL,
	"secret_key_last4" text NOT NULL,
	"is_kyc_completed" boolean NOT NULL,
	"fee_basis_points" integer DEFAULT 100 NOT NULL,
	"fee_cap_kobo" bigint,
	"fee_account_id" uuid NOT NULL,
	"external_account_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clients_public_key_unique" UNIQUE("public_key"),
	CONSTRAINT "clients_secret_key_hash_unique" UNIQUE("secret_key_hash")
);
--> statement-breakpoint
CREATE TABLE "dispute_proposals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"dispute_id" uuid NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"proposed_by" text NOT NULL,
	"status" text NOT NULL,
	"rejection_reason" text,
	"decided_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"dispute_code" text NOT NULL,
	"description" text NOT NULL,
	"buyer_party_id" uuid NOT NULL,
	"seller_party_id" uuid NOT NULL,
	"milestone_id" uuid NOT NULL,
	"status" text NOT NULL,
	"dispute_amount_status" text NOT NULL,
	"dispute_amount_kobo" bigint DEFAULT 0 NOT NULL,
	"is_buyer_evidence_submitted" boolean DEFAULT false NOT NULL,
	"is_seller_evidence_submitted" boolean DEFAULT false NOT NULL,
	"intra_party_mediation_end_date" timestamp (3) with time zone NOT NULL,
	"evidence_submission_end_date" timestamp (3) with time zone,
	"cancellation_agreement_details" text,
	"canceled_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_dispute_code_unique" UNIQUE("dispute_code"),
	CONSTRAINT "disputes_milestone_id_unique" UNIQUE("milestone_id")
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"balance_kobo" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_no_overdraft" CHECK ("ledger_accounts"."kind" in ('platform_fees', 'external') or "ledger_accounts"."balance_kobo" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"transfer_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"milestone_id" uuid,
	"description" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "milestone_escrows" (
	"id" uuid PRIMARY KEY NOT NULL,
	"milestone_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "milestone_escrows_milestone_id_unique" UNIQUE("milestone_id")
);
--> statement-breakpoint
CREATE TABLE "milestone_logs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"milestone_id" uuid NOT NULL,
	"log_message" text NOT NULL,
	"actor" text NOT NULL,
	"is_automatic" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "milestones" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"fee_kobo" bigint NOT NULL,
	"is_milestone_funded" boolean DEFAULT false NOT NULL,
	"position_in_transaction" integer NOT NULL,
	"is_delivered" boolean DEFAULT false NOT NULL,
	"is_completed" boolean DEFAULT false NOT NULL,
	"delivery_rejection_reason" text,
	"is_delivery_rejected" boolean DEFAULT false NOT NULL,
	"is_return_proof_sent" boolean DEFAULT false NOT NULL,
	"is_return_approved" boolean DEFAULT false NOT NULL,
	"is_return_rejected" boolean DEFAULT false NOT NULL,
	"due_date_type" text DEFAULT 'DEADLINE_DATE' NOT NULL,
	"due_date" timestamp (3) with time zone NOT NULL,
	"execution_timeline" text,
	"status" text NOT NULL,
	"commission_payer" text NOT NULL,
	"discount_code" text,
	"inspection_duration" integer NOT NULL,
	"inspection_end_date" timestamp (3) with time zone,
	"return_deadline_date" timestamp (3) with time zone,
	"current_extension_index" integer,
	"rate_used_basis_points" integer NOT NULL,
	"proofs_of_completion" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"proofs_of_return" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"wallet_id" uuid NOT NULL,
	"pga_customer_code" text,
	"account_kyc_type" text,
	"is_kyc_completed" boolean DEFAULT false NOT NULL,
	"is_kyc_submitted" boolean DEFAULT false NOT NULL,
	"is_kyc_approved" boolean DEFAULT false NOT NULL,
	"is_kyc_declined" boolean DEFAULT false NOT NULL,
	"kyc_decline_reason" text,
	"kyc_completed_at" timestamp (3) with time zone,
	"created_by" uuid,
	"kyc_approved_by" uuid,
	"kyc_declined_by" uuid,
	"updated_by" uuid,
	"location_type" text DEFAULT 'LOCAL' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organisations_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "parties" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"role" text DEFAULT 'SUPER ADMIN' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parties_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"currency" text DEFAULT 'NGN' NOT NULL,
	"location_type" text DEFAULT 'LOCAL' NOT NULL,
	"category" text NOT NULL,
	"sub_category" text NOT NULL,
	"transaction_contract_url" text,
	"status" text NOT NULL,
	"transaction_originator" text DEFAULT 'BUYER' NOT NULL,
	"buyer_party_id" uuid NOT NULL,
	"seller_party_id" uuid NOT NULL,
	"source" text DEFAULT 'api' NOT NULL,
	"commission_payer" text NOT NULL,
	"transaction_amount_kobo" bigint NOT NULL,
	"total_amount_funded_kobo" bigint DEFAULT 0 NOT NULL,
	"total_amount_refunded_kobo" bigint DEFAULT 0 NOT NULL,
	"total_amount_disbursed_kobo" bigint DEFAULT 0 NOT NULL,
	"current_milestone_id" uuid,
	"job_id" text,
	"decline_reason" text,
	"is_completed" boolean DEFAULT false NOT NULL,
	"has_buyer_rated" boolean DEFAULT false NOT NULL,
	"has_seller_rated" boolean DEFAULT false NOT NULL,
	"on_last_milestone" boolean DEFAULT false NOT NULL,
	"discount_code" text,
	"declined_at" timestamp (3) with time zone,
	"approved_at" timestamp (3) with time zone,
	"date_canceled" timestamp (3) with time zone,
	"updated_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"user_name" text NOT NULL,
	"email" text NOT NULL,
	"email_lower" text NOT NULL,
	"phone" text,
	"is_account_verified" boolean DEFAULT true NOT NULL,
	"password_reset" boolean DEFAULT false NOT NULL,
	"role" text DEFAULT 'USER' NOT NULL,
	"referred_by_id" uuid,
	"referral_code" text,
	"source" text DEFAULT 'THIRD_PARTY' NOT NULL,
	"api_enabled" boolean DEFAULT false NOT NULL,
	"password_created" boolean DEFAULT false NOT NULL,
	"last_logged_in_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_user_name_unique" UNIQUE("user_name")
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"account_reference" text NOT NULL,
	"provider" text NOT NULL,
	"funder_email" text,
	"disbursement_email" text,
	"bvn" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallets_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "wallets_account_reference_unique" UNIQUE("account_reference")
);
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_proposals" ADD CONSTRAINT "dispute_proposals_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_buyer_party_id_parties_id_fk" FOREIGN KEY ("buyer_party_id") REFERENCES "public"."parties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_seller_party_id_parties_id_fk" FOREIGN KEY ("seller_party_id") REFERENCES "public"."parties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestone_escrows" ADD CONSTRAINT "milestone_escrows_id_ledger_accounts_id_fk" FOREIGN KEY ("id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestone_escrows" ADD CONSTRAINT "milestone_escrows_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestone_logs" ADD CONSTRAINT "milestone_logs_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestones" ADD CONSTRAINT "milestones_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parties" ADD CONSTRAINT "parties_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parties" ADD CONSTRAINT "parties_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_buyer_party_id_parties_id_fk" FOREIGN KEY ("buyer_party_id") REFERENCES "public"."parties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_seller_party_id_parties_id_fk" FOREIGN KEY ("seller_party_id") REFERENCES "public"."parties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_id_ledger_accounts_id_fk" FOREIGN KEY ("id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_wallet_account_idx" ON "bank_accounts" USING btree ("wallet_id","bank_code","account_number");--> statement-breakpoint
CREATE INDEX "bank_accounts_client_created_idx" ON "bank_accounts" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "dispute_proposals_dispute_idx" ON "dispute_proposals" USING btree ("dispute_id","created_at");--> statement-breakpoint
CREATE INDEX "disputes_client_created_idx" ON "disputes" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_transfer_idx" ON "ledger_entries" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_client_idx" ON "ledger_transfers" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "milestone_logs_milestone_idx" ON "milestone_logs" USING btree ("milestone_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_transaction_position_idx" ON "milestones" USING btree ("transaction_id","position_in_transaction");--> statement-breakpoint
CREATE INDEX "transactions_client_created_idx" ON "transactions" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_buyer_idx" ON "transactions" USING btree ("buyer_party_id");--> statement-breakpoint
CREATE INDEX "transactions_seller_idx" ON "transactions" USING btree ("seller_party_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_client_email_idx" ON "users" USING btree ("client_id","email_lower");--> statement-breakpoint
CREATE INDEX "users_client_created_idx" ON "users" USING btree ("client_id","created_at");