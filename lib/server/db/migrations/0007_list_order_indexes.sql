-- The lists' order (created_at, then id) served by the index itself: a page is read straight off it, with no sort of every row the client has.
CREATE INDEX "transactions_client_created_id_idx" ON "transactions" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "users_client_created_id_idx" ON "users" USING btree ("client_id","created_at","id");--> statement-breakpoint
DROP INDEX "transactions_client_created_idx";--> statement-breakpoint
DROP INDEX "users_client_created_idx";
