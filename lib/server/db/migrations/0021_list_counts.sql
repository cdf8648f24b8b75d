CREATE TABLE "list_count_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "list_count_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"list" text NOT NULL,
	"scope" uuid NOT NULL,
	"facet" text NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_counts" (
	"list" text NOT NULL,
	"scope" uuid NOT NULL,
	"facet" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "list_counts_list_scope_facet_pk" PRIMARY KEY("list","scope","facet")
);
--> statement-breakpoint
DROP INDEX "events_client_created_idx";--> statement-breakpoint
DROP INDEX "ledger_entries_account_idx";--> statement-breakpoint
CREATE INDEX "list_count_changes_key_idx" ON "list_count_changes" USING btree ("list","scope","facet");--> statement-breakpoint
CREATE INDEX "events_client_position_idx" ON "events" USING btree ("client_id","created_at",coalesce("sequence", 0),"id");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account_id","created_at","id");--> statement-breakpoint
-- Each list's facets of one row: '' (the whole list) and one per filter a total is kept for, `name=value`
-- pairs joined by `&` in name order (lib/server/db/list-counts.ts spells them the same way).
CREATE FUNCTION transaction_facets(status text, buyer uuid, seller uuid) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT f FROM (VALUES (''), ('status=' || status), ('party=' || buyer), ('party=' || seller),
    ('party=' || buyer || '&status=' || status), ('party=' || seller || '&status=' || status)) v(f)
$$;--> statement-breakpoint
CREATE FUNCTION status_facets(status text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  VALUES (''), ('status=' || status)
$$;--> statement-breakpoint
CREATE FUNCTION payout_facets(status text, user_id uuid) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  VALUES (''), ('status=' || status), ('user=' || user_id), ('status=' || status || '&user=' || user_id)
$$;--> statement-breakpoint
CREATE FUNCTION event_facets(type text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  VALUES (''), ('type=' || type)
$$;--> statement-breakpoint
-- One trigger function per table, for its three statement triggers (a transition table serves one event):
-- the statement's net change per list, scope and facet, appended; a change that nets to nothing is not.
CREATE FUNCTION count_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_count_changes (list, scope, facet, n)
    SELECT 'transactions', client_id, f, count(*) FROM new_rows, transaction_facets(status, buyer_party_id, seller_party_id) f GROUP BY 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_count_changes (list, scope, facet, n)
    SELECT 'transactions', client_id, f, -count(*) FROM old_rows, transaction_facets(status, buyer_party_id, seller_party_id) f GROUP BY 2, 3;
  ELSE
    INSERT INTO list_count_changes (list, scope, facet, n)
    SELECT 'transactions', scope, f, sum(n) FROM (
      SELECT client_id AS scope, f, 1 AS n FROM new_rows, transaction_facets(status, buyer_party_id, seller_party_id) f
      UNION ALL
      SELECT client_id, f, -1 FROM old_rows, transaction_facets(status, buyer_party_id, seller_party_id) f
    ) c GROUP BY 2, 3 HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION count_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_count_changes (list, scope, facet, n) SELECT 'users', client_id, '', count(*) FROM new_rows GROUP BY 2;
  ELSE
    INSERT INTO list_count_changes (list, scope, facet, n) SELECT 'users', client_id, '', -count(*) FROM old_rows GROUP BY 2;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION count_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_count_changes (list, scope, facet, n) SELECT 'events', client_id, f, count(*) FROM new_rows, event_facets(type) f GROUP BY 2, 3;
  ELSE
    INSERT INTO list_count_changes (list, scope, facet, n) SELECT 'events', client_id, f, -count(*) FROM old_rows, event_facets(type) f GROUP BY 2, 3;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A wallet's history: the entries of wallet accounts only (escrow and the client's own accounts have no list).
CREATE FUNCTION count_wallet_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_count_changes (list, scope, facet, n)
    SELECT 'wallet_entries', e.account_id, '', count(*) FROM new_rows e JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'wallet' GROUP BY 2;
  ELSE
    INSERT INTO list_count_changes (list, scope, facet, n)
    SELECT 'wallet_entries', e.account_id, '', -count(*) FROM old_rows e JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'wallet' GROUP BY 2;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION count_webhook_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_count_changes (list, scope, facet, n) SELECT 'webhook_deliveries', endpoint_id, f, count(*) FROM new_rows, status_facets(status) f GROUP BY 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_count_changes (list, scope, facet, n) SELECT 'webhook_deliveries', endpoint_id, f, -count(*) FROM old_rows, status_facets(status) f GROUP BY 2, 3;
  ELSE
    INSERT INTO list_count_changes (list, scope, facet, n)
    SELECT 'webhook_deliveries', scope, f, sum(n) FROM (
      SELECT endpoint_id AS scope, f, 1 AS n FROM new_rows, status_facets(status) f
      UNION ALL
      SELECT endpoint_id, f, -1 FROM old_rows, status_facets(status) f
    ) c GROUP BY 2, 3 HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A client's emails (the service's own staff's, with no client, are in no client's list).
CREATE FUNCTION count_emails() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_count_changes (list, scope, facet, n) SELECT 'emails', client_id, f, count(*) FROM new_rows, status_facets(status) f WHERE client_id IS NOT NULL GROUP BY 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_count_changes (list, scope, facet, n) SELECT 'emails', client_id, f, -count(*) FROM old_rows, status_facets(status) f WHERE client_id IS NOT NULL GROUP BY 2, 3;
  ELSE
    INSERT INTO list_count_changes (list, scope, facet, n)
    SELECT 'emails', scope, f, sum(n) FROM (
      SELECT client_id AS scope, f, 1 AS n FROM new_rows, status_facets(status) f WHERE client_id IS NOT NULL
      UNION ALL
      SELECT client_id, f, -1 FROM old_rows, status_facets(status) f WHERE client_id IS NOT NULL
    ) c GROUP BY 2, 3 HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION count_payouts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_count_changes (list, scope, facet, n) SELECT 'payouts', client_id, f, count(*) FROM new_rows, payout_facets(status, user_id) f GROUP BY 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_count_changes (list, scope, facet, n) SELECT 'payouts', client_id, f, -count(*) FROM old_rows, payout_facets(status, user_id) f GROUP BY 2, 3;
  ELSE
    INSERT INTO list_count_changes (list, scope, facet, n)
    SELECT 'payouts', scope, f, sum(n) FROM (
      SELECT client_id AS scope, f, 1 AS n FROM new_rows, payout_facets(status, user_id) f
      UNION ALL
      SELECT client_id, f, -1 FROM old_rows, payout_facets(status, user_id) f
    ) c GROUP BY 2, 3 HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER transactions_counted_insert AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_transactions();--> statement-breakpoint
CREATE TRIGGER transactions_counted_update AFTER UPDATE ON transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_transactions();--> statement-breakpoint
CREATE TRIGGER transactions_counted_delete AFTER DELETE ON transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_transactions();--> statement-breakpoint
CREATE TRIGGER users_counted_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_users();--> statement-breakpoint
CREATE TRIGGER users_counted_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_users();--> statement-breakpoint
CREATE TRIGGER events_counted_insert AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_events();--> statement-breakpoint
CREATE TRIGGER events_counted_delete AFTER DELETE ON events REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_events();--> statement-breakpoint
CREATE TRIGGER ledger_entries_counted_insert AFTER INSERT ON ledger_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_wallet_entries();--> statement-breakpoint
CREATE TRIGGER ledger_entries_counted_delete AFTER DELETE ON ledger_entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_wallet_entries();--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_counted_insert AFTER INSERT ON webhook_deliveries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_webhook_deliveries();--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_counted_update AFTER UPDATE ON webhook_deliveries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_webhook_deliveries();--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_counted_delete AFTER DELETE ON webhook_deliveries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_webhook_deliveries();--> statement-breakpoint
CREATE TRIGGER email_outbox_counted_insert AFTER INSERT ON email_outbox REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_emails();--> statement-breakpoint
CREATE TRIGGER email_outbox_counted_update AFTER UPDATE ON email_outbox REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_emails();--> statement-breakpoint
CREATE TRIGGER email_outbox_counted_delete AFTER DELETE ON email_outbox REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_emails();--> statement-breakpoint
CREATE TRIGGER payouts_counted_insert AFTER INSERT ON payouts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_payouts();--> statement-breakpoint
CREATE TRIGGER payouts_counted_update AFTER UPDATE ON payouts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_payouts();--> statement-breakpoint
CREATE TRIGGER payouts_counted_delete AFTER DELETE ON payouts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_payouts();--> statement-breakpoint
-- What the tables hold already, counted once.
INSERT INTO list_counts (list, scope, facet, n)
SELECT 'transactions', client_id, f, count(*) FROM transactions, transaction_facets(status, buyer_party_id, seller_party_id) f GROUP BY 2, 3
UNION ALL SELECT 'users', client_id, '', count(*) FROM users GROUP BY 2
UNION ALL SELECT 'events', client_id, f, count(*) FROM events, event_facets(type) f GROUP BY 2, 3
UNION ALL SELECT 'wallet_entries', e.account_id, '', count(*) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'wallet' GROUP BY 2
UNION ALL SELECT 'webhook_deliveries', endpoint_id, f, count(*) FROM webhook_deliveries, status_facets(status) f GROUP BY 2, 3
UNION ALL SELECT 'emails', client_id, f, count(*) FROM email_outbox, status_facets(status) f WHERE client_id IS NOT NULL GROUP BY 2, 3
UNION ALL SELECT 'payouts', client_id, f, count(*) FROM payouts, payout_facets(status, user_id) f GROUP BY 2, 3;
