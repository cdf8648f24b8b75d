import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/rows';

/**
 * The operator's audit of docs/decisions.md §4: every transfer balances, the whole ledger sums to zero, every
 * cached balance equals the sum of its entries, no wallet, escrow or payouts-in-flight account is below
 * zero, and each client's payouts in flight are its PENDING and PROCESSING payouts.
 */
export async function ledgerIntegrity(db: Db) {
  const [totals] = await queryRows<{ total: string | number; entries: string | number }>(db, sql`select coalesce(sum(amount_kobo), 0)::bigint as total, count(*)::bigint as entries from ledger_entries`);
  const unbalanced = await queryRows<{ transfer_id: string }>(db, sql`select transfer_id from ledger_entries group by transfer_id having sum(amount_kobo) <> 0`);
  const mismatched = await queryRows<{ id: string }>(db, sql`
      select a.id, a.kind, a.balance_kobo, coalesce(sum(e.amount_kobo), 0)::bigint as entries_sum
      from ledger_accounts a left join ledger_entries e on e.account_id = a.id
      group by a.id, a.kind, a.balance_kobo
      having a.balance_kobo <> coalesce(sum(e.amount_kobo), 0)`);
  const negative = await queryRows<{ id: string }>(db, sql`select id, kind, balance_kobo from ledger_accounts where kind in ('wallet', 'escrow', 'payouts_in_flight') and balance_kobo < 0`);
  // Money on its way out is exactly the payouts still on their way (docs/decisions.md §11).
  const inFlight = await queryRows<{ id: string }>(db, sql`
      select c.id from clients c join ledger_accounts a on a.id = c.payouts_account_id
      where a.balance_kobo <> coalesce((select sum(p.amount_kobo) from payouts p where p.client_id = c.id and p.status in ('PENDING', 'PROCESSING')), 0)`);
  const total = Number(totals?.total ?? 0);
  return {
    balanced: total === 0 && unbalanced.length === 0 && mismatched.length === 0 && negative.length === 0 && inFlight.length === 0,
    ledger_sum_kobo: total,
    entries: Number(totals?.entries ?? 0),
    unbalanced_transfers: unbalanced.map((r) => r.transfer_id),
    accounts_not_matching_entries: mismatched.map((r) => r.id),
    negative_accounts: negative.map((r) => r.id),
    payouts_in_flight_not_matching: inFlight.map((r) => r.id),
  };
}
