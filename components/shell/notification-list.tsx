'use client';

import Link from 'next/link';
import type { NotificationsView } from '@/lib/contracts/dashboard-disputes';
import { dateTime } from '../escrow/format';
import { cn } from '../ui/cn';

/** The opened bell's lines, newest first; following one closes the bell. */
export default function NotificationList({ view, onNavigate }: { view: NotificationsView; onNavigate: () => void }) {
  if (view.items.length === 0) return <p className="px-4 py-3 text-sm text-slate-600">Nothing yet. What happens to your transactions shows up here.</p>;
  return (
    <ul className="max-h-96 overflow-y-auto">
      {view.items.map((item) => {
        const body = (
          <>
            <span className={cn('block text-sm', item.unread ? 'font-semibold text-slate-900' : 'text-slate-700')}>
              {item.unread ? <span className="mr-1.5 inline-block h-2 w-2 rounded-full bg-emerald-600" aria-label="new" /> : null}
              {item.text}
            </span>
            <time dateTime={item.at} className="text-xs text-slate-500">
              {dateTime(item.at)}
            </time>
          </>
        );
        return (
          <li key={item.id} className="border-b last:border-b-0" data-testid="notification">
            {item.href ? (
              <Link href={item.href} onClick={onNavigate} className="block px-4 py-2 hover:bg-slate-50">
                {body}
              </Link>
            ) : (
              <div className="px-4 py-2">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
