import Link from 'next/link';
import { cn } from '../ui/cn';

const TABS = [
  { href: '/admin/payouts', label: 'All payouts' },
  { href: '/admin/payouts/automatic', label: 'Automatic payouts' },
] as const;

/** The payouts area's two pages, each its own URL so each load reads only what it shows. */
export function PayoutsTabs({ current }: { current: (typeof TABS)[number]['href'] }) {
  return (
    <nav aria-label="Payouts" className="mb-6 flex gap-2 border-b">
      {TABS.map((tab) => (
        <Link
          key={tab.href}
          href={tab.href}
          aria-current={tab.href === current ? 'page' : undefined}
          className={cn('-mb-px border-b-2 px-3 py-2 text-sm font-medium', tab.href === current ? 'border-emerald-700 text-emerald-800' : 'border-transparent text-slate-600 hover:text-slate-900')}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
