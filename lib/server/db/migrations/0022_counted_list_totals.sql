-- Every kept list total counted from the tables themselves: what list_counts holds once every change is
-- folded. A bulk load that writes with the counting triggers off (the benchmark's data generator) sets
-- list_counts from it, and tests compare the kept totals with it.
CREATE FUNCTION counted_list_totals() RETURNS TABLE (list text, scope uuid, facet text, n bigint) LANGUAGE sql STABLE AS $$
  SELECT 'transactions', client_id, f, count(*) FROM transactions, transaction_facets(status, buyer_party_id, seller_party_id) f GROUP BY 2, 3
  UNION ALL SELECT 'users', client_id, '', count(*) FROM users GROUP BY 2
  UNION ALL SELECT 'events', client_id, f, count(*) FROM events, event_facets(type) f GROUP BY 2, 3
  UNION ALL SELECT 'wallet_entries', e.account_id, '', count(*) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'wallet' GROUP BY 2
  UNION ALL SELECT 'webhook_deliveries', endpoint_id, f, count(*) FROM webhook_deliveries, status_facets(status) f GROUP BY 2, 3
  UNION ALL SELECT 'emails', client_id, f, count(*) FROM email_outbox, status_facets(status) f WHERE client_id IS NOT NULL GROUP BY 2, 3
  UNION ALL SELECT 'payouts', client_id, f, count(*) FROM payouts, payout_facets(status, user_id) f GROUP BY 2, 3
$$;
