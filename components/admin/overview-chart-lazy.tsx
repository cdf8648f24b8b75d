'use client';

import dynamic from 'next/dynamic';
import type { ChartMonth } from './overview-chart';

/** recharts loads with the overview only, after the figures: other pages' first load does not carry it. */
const OverviewChart = dynamic(() => import('./overview-chart').then((m) => m.OverviewChart), {
  ssr: false,
  loading: () => <div className="h-72 animate-pulse rounded bg-slate-100" aria-hidden="true" />,
});

export function LazyOverviewChart({ months }: { months: ChartMonth[] }) {
  return <OverviewChart months={months} />;
}
