import 'server-only';
import { sql } from 'drizzle-orm';
import { koboToNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { queryRows } from '../db/rows';
import { env } from '../env';

export type MismatchKind = 'stuck_processing' | 'outcome_without_transfer' | 'transfer_without_outcome';

type MismatchRow = { kind: MismatchKind; client_id: string | null; payout_id: string | null; reference: string; amount_kobo: string | number | null; at: string | Date; detail: string };

/**
 * GET /v1/operator/reconciliation (docs/decisions.md §12): payouts and provider-confirmed fundings set against
 * the ledger between `from` and `to`. Every payout outcome and live funding the ledger shows has the
 * provider's word beside it (provider_events.ledger_transfer_id), and every word of the provider moved
 * money; what does not pair up is listed, with payouts PROCESSING for over a day.
 */
export async function reconcile(db: Db, a: { from: Date; to: Date; now: Date }) {
  const from = a.from.toISOString();
  const to = a.to.toISOString();
  const stuckBefore = new Date(a.now.getTime() - env().ESCROW_PAYOUT_STUCK_AFTER_MS).toISOString();
  const rows = await queryRows<MismatchRow>(
    db,
    sql`select 'stuck_processing' as kind, p.client_id, p.id as payout_id, p.reference, p.amount_kobo, coalesce(p.sent_at, p.created_at) as at,
          'PROCESSING at ' || p.provider || ' since ' || to_char(coalesce(p.sent_at, p.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as detail
        from payouts p
        where p.status = 'PROCESSING' and coalesce(p.sent_at, p.created_at) < ${stuckBefore}::timestamptz
          and p.created_at between ${from}::timestamptz and ${to}::timestamptz
      union all
      select 'outcome_without_transfer', e.client_id, e.payout_id, e.reference, e.amount_kobo, e.received_at,
          e.provider || ' reported ' || e.kind || ' with no ledger transfer for it'
        from provider_events e
        where e.ledger_transfer_id is null and e.received_at between ${from}::timestamptz and ${to}::timestamptz
      union all
      select 'transfer_without_outcome', t.client_id, t.payout_id, coalesce(p.reference, t.id::text), (select sum(greatest(en.amount_kobo, 0)) from ledger_entries en where en.transfer_id = t.id),
          t.created_at, 'ledger transfer ' || t.kind || ' (' || t.description || ') with no provider outcome'
        from ledger_transfers t left join payouts p on p.id = t.payout_id
        where t.kind in ('payout_paid', 'payout_returned', 'live_funding', 'checkout_payment') and t.created_at between ${from}::timestamptz and ${to}::timestamptz
          and not exists (select 1 from provider_events e where e.ledger_transfer_id = t.id)
      order by at, reference`,
  );
  const [checked] = await queryRows<{ payouts: string | number; provider_events: string | number; transfers: string | number }>(
    db,
    sql`select (select count(*) from payouts where created_at between ${from}::timestamptz and ${to}::timestamptz) as payouts,
      (select count(*) from provider_events where received_at between ${from}::timestamptz and ${to}::timestamptz) as provider_events,
      (select count(*) from ledger_transfers where kind in ('payout_paid', 'payout_returned', 'live_funding', 'checkout_payment') and created_at between ${from}::timestamptz and ${to}::timestamptz) as transfers`,
  );
  return {
    from,
    to,
    checked: { payouts: Number(checked?.payouts ?? 0), provider_events: Number(checked?.provider_events ?? 0), ledger_transfers: Number(checked?.transfers ?? 0) },
    reconciled: rows.length === 0,
    mismatches: rows.map((r) => ({
      kind: r.kind,
      client_id: r.client_id,
      payout_id: r.payout_id,
      reference: r.reference,
      amount: r.amount_kobo === null ? null : koboToNaira(Number(r.amount_kobo)),
      at: new Date(r.at).toISOString(),
      detail: r.detail,
    })),
  };
}
