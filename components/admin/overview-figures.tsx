import Link from 'next/link';
import type { OverviewRecord } from '@/lib/contracts/reports';
import { naira } from '../escrow/format';
import { Card, CardHeader } from '../ui/card';
import { Table } from '../ui/table';
import { LazyOverviewChart } from './overview-chart-lazy';

export type OverviewLinks = { held: string; released: string; refunded: string; fees: string; openDisputes: string; lateDisputes: string };

/** "2026-11" as Lagos says it: Nov 2026. */
export function monthLabel(month: string): string {
  const [year, index] = month.split('-').map(Number);
  return new Date(Date.UTC(year!, index! - 1, 15)).toLocaleDateString('en-NG', { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** The overview's figures, each a link to the list behind it, and the monthly chart with the table of its amounts. */
export function OverviewFigures({ overview, links }: { overview: OverviewRecord; links: OverviewLinks }) {
  const figures = [
    { id: 'held', label: 'Held in escrow now', value: naira(overview.held_in_escrow), href: links.held },
    { id: 'released', label: 'Released this month', value: naira(overview.released_this_month), href: links.released },
    { id: 'refunded', label: 'Refunded this month', value: naira(overview.refunded_this_month), href: links.refunded },
    { id: 'fees', label: 'Fees earned this month', value: naira(overview.fees_this_month), href: links.fees },
    { id: 'open-disputes', label: 'Open disputes', value: String(overview.open_disputes), href: links.openDisputes },
    { id: 'late-disputes', label: 'Late disputes', value: String(overview.late_disputes), href: links.lateDisputes },
  ];
  const first = overview.months[0];
  return (
    <div className="space-y-6">
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={`Figures for ${monthLabel(overview.month)}`}>
        {figures.map((f) => (
          <li key={f.id}>
            <Link
              href={f.href}
              data-testid={`figure-${f.id}`}
              className="block rounded-lg border bg-white p-4 shadow-sm hover:border-emerald-400 focus-visible:outline-2 focus-visible:outline-emerald-700"
            >
              <span className="block text-sm text-slate-600">{f.label}</span>
              <span className="mt-1 block break-words text-2xl font-semibold tabular-nums text-slate-900" data-testid="figure-value">
                {f.value}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="text-sm text-slate-600">
        Counted from the ledger in Lagos months. Late disputes: a mediation or evidence deadline passed and not yet settled, arbitration declined, or
        waiting for a verdict over 5 days.
      </p>
      <Card>
        <CardHeader title="Month by month" description={first ? `${monthLabel(first.month)} to ${monthLabel(overview.month)}: money into escrow and out of it.` : undefined} />
        <LazyOverviewChart months={overview.months.map((m) => ({ ...m, label: monthLabel(m.month) }))} />
        {/* The exact amounts, shown: on a phone each month is a card, so no amount is cut off at the screen's edge. */}
        <div className="mt-4">
          <Table
            caption="Money by month, in naira"
            rows={overview.months}
            rowKey={(m) => m.month}
            rowTestId={() => 'overview-month'}
            columns={[
              { header: 'Month', primary: true, cell: (m) => monthLabel(m.month) },
              { header: 'Funded', align: 'right', testId: 'overview-amount', className: 'tabular-nums', cell: (m) => naira(m.funded) },
              { header: 'Released', align: 'right', testId: 'overview-amount', className: 'tabular-nums', cell: (m) => naira(m.released) },
              { header: 'Refunded', align: 'right', testId: 'overview-amount', className: 'tabular-nums', cell: (m) => naira(m.refunded) },
              { header: 'Fees', align: 'right', testId: 'overview-amount', className: 'tabular-nums', cell: (m) => naira(m.fees) },
            ]}
          />
        </div>
      </Card>
    </div>
  );
}
