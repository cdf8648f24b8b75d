import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { lagosMonths } from '@/lib/escrow/lagos-months';
import { koboToNaira } from '@/lib/escrow/money';
import type { OverviewRecord } from '@/lib/contracts/reports';
import type { Db } from '../db/client';
import { queryRows } from '../db/rows';
import { iso } from '../records/iso';

/** An open dispute in ARBITRATION this long after its evidence window closed, with no verdict, is late. */
export const ARBITRATION_LATE_DAYS = 5;
const DAY_MS = 86_400_000;

type Num = string | number;
type MonthRow = { month: string; funded: Num; released: Num; refunded: Num; fees: Num };
type NowRow = { held: Num; open_disputes: Num; late_disputes: Num };

/**
 * The overview of one client (or of all, clientId null) as the ledger has it, on that client's clock:
 * money held in escrow now, and per Lagos month what went into escrow, out of it to sellers and back to
 * buyers, and into the fee account. Two set-based statements, whatever the number of deals.
 *
 * Released and refunded are the wallet legs of the escrow-settling transfers: a credit to the seller's
 * wallet (the transaction's seller organisation) is released, any other wallet credit of a release,
 * dispute settlement or refund goes back to the buyer. The escrow's debits are exactly released +
 * refunded + fees, so the figures add up to what left escrow.
 */
export async function reportOverview(db: Db, q: { clientId: string | null; months: number; now: Date }): Promise<OverviewRecord> {
  const months = lagosMonths(q.now, q.months);
  const first = months[0]!;
  const last = months.at(-1)!;
  const ofClient = (column: SQL) => (q.clientId ? sql`${column} = ${q.clientId}` : sql`true`);
  const monthList = sql.join(
    months.map((m) => sql`(${m.month}, ${m.startsAt.toISOString()}::timestamptz, ${m.endsAt.toISOString()}::timestamptz)`),
    sql`, `,
  );
  const flows = queryRows<MonthRow>(db, sql`
    with moves as (
      select t.created_at, t.kind as transfer_kind, a.kind as account_kind, e.amount_kobo,
             (e.account_id = so.wallet_id) as to_seller
      from ledger_transfers t
      join ledger_entries e on e.transfer_id = t.id
      join ledger_accounts a on a.id = e.account_id
      left join milestones m on m.id = t.milestone_id
      left join transactions tx on tx.id = m.transaction_id
      left join parties sp on sp.id = tx.seller_party_id
      left join organisations so on so.id = sp.organisation_id
      where ${ofClient(sql`t.client_id`)}
        and t.created_at >= ${first.startsAt.toISOString()}::timestamptz and t.created_at < ${last.endsAt.toISOString()}::timestamptz
        and (a.kind = 'platform_fees' or (a.kind = 'escrow' and t.kind = 'milestone_funding')
             or (a.kind = 'wallet' and t.kind in ('release', 'dispute_settlement', 'refund')))
    )
    select mo.month,
      coalesce(sum(mv.amount_kobo) filter (where mv.account_kind = 'escrow'), 0)::bigint as funded,
      coalesce(sum(mv.amount_kobo) filter (where mv.account_kind = 'wallet' and mv.transfer_kind <> 'refund' and mv.to_seller), 0)::bigint as released,
      coalesce(sum(mv.amount_kobo) filter (where mv.account_kind = 'wallet' and (mv.transfer_kind = 'refund' or not coalesce(mv.to_seller, false))), 0)::bigint as refunded,
      coalesce(sum(mv.amount_kobo) filter (where mv.account_kind = 'platform_fees'), 0)::bigint as fees
    from (values ${monthList}) as mo(month, starts_at, ends_at)
    left join moves mv on mv.created_at >= mo.starts_at and mv.created_at < mo.ends_at
    group by mo.month
    order by mo.month`);
  const nowIso = q.now.toISOString();
  const arbitrationLate = new Date(q.now.getTime() - ARBITRATION_LATE_DAYS * DAY_MS).toISOString();
  const current = queryRows<NowRow>(db, sql`
    select
      (select coalesce(sum(balance_kobo), 0)::bigint from ledger_accounts where kind = 'escrow' and ${ofClient(sql`client_id`)}) as held,
      count(*) filter (where status not in ('RESOLVED', 'CANCELED'))::bigint as open_disputes,
      count(*) filter (where
        (status = 'INTRA_PARTY_MEDIATION' and intra_party_mediation_end_date <= ${nowIso}::timestamptz)
        or (status = 'EVIDENCE_SUBMISSION' and evidence_submission_end_date <= ${nowIso}::timestamptz)
        or status = 'ARBITRATION_DECLINED'
        or (status = 'ARBITRATION' and coalesce(evidence_submission_end_date, escalated_at, created_at) <= ${arbitrationLate}::timestamptz)
      )::bigint as late_disputes
    from disputes
    where status not in ('RESOLVED', 'CANCELED') and ${ofClient(sql`client_id`)}`);
  const [rows, [now]] = await Promise.all([flows, current]);
  const series = months.map((m) => {
    const row = rows.find((r) => r.month === m.month);
    return {
      month: m.month,
      starts_at: iso(m.startsAt),
      funded: koboToNaira(Number(row?.funded ?? 0)),
      released: koboToNaira(Number(row?.released ?? 0)),
      refunded: koboToNaira(Number(row?.refunded ?? 0)),
      fees: koboToNaira(Number(row?.fees ?? 0)),
    };
  });
  const thisMonth = series.at(-1)!;
  return {
    client_id: q.clientId,
    as_of: iso(q.now),
    month: thisMonth.month,
    currency: 'NGN',
    held_in_escrow: koboToNaira(Number(now?.held ?? 0)),
    funded_this_month: thisMonth.funded,
    released_this_month: thisMonth.released,
    refunded_this_month: thisMonth.refunded,
    fees_this_month: thisMonth.fees,
    open_disputes: Number(now?.open_disputes ?? 0),
    late_disputes: Number(now?.late_disputes ?? 0),
    months: series,
  };
}
