'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { naira } from '../escrow/format';

export type ChartMonth = { month: string; label: string; funded: number; released: number; refunded: number; fees: number };

const SERIES = [
  { key: 'funded', name: 'Funded', color: '#0369a1' },
  { key: 'released', name: 'Released', color: '#047857' },
  { key: 'refunded', name: 'Refunded', color: '#b45309' },
  { key: 'fees', name: 'Fees', color: '#6d28d9' },
] as const;

const compact = new Intl.NumberFormat('en-NG', { notation: 'compact', maximumFractionDigits: 1 });

/** The monthly bars; the table beside it (visually hidden) says the same to a screen reader. */
export function OverviewChart({ months }: { months: ChartMonth[] }) {
  const summary = months
    .map((m) => `${m.label}: funded ${naira(m.funded)}, released ${naira(m.released)}, refunded ${naira(m.refunded)}, fees ${naira(m.fees)}`)
    .join('; ');
  return (
    <div role="img" aria-label={`Bar chart of money by month. ${summary}.`} data-testid="overview-chart" className="h-72 w-full min-w-0 overflow-hidden">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={months} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
          <YAxis tickFormatter={(v: number) => `₦${compact.format(v)}`} tick={{ fontSize: 12 }} width={56} />
          <Tooltip formatter={(value) => naira(Number(value))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {SERIES.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
