'use client';

import type { Deadline } from '@/lib/contracts/dashboard';
import { useNow } from '../ui/use-now';
import { deadlineWords } from './deadline-words';
import { dateTime } from './format';

function remaining(ms: number): string {
  if (ms <= 0) return 'passed';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return `${d}d ${h}h ${m}m left`;
  if (h > 0) return `${h}h ${m}m left`;
  return `${m}m ${sec}s left`;
}

/**
 * A live countdown to one of the API's deadlines. The time left renders after mount (the server's clock and
 * the browser's differ), and the screen-reader text updates by the minute rather than every second.
 */
export function DeadlineCountdown({ deadline, viewer = 'staff' }: { deadline: Deadline; viewer?: 'buyer' | 'seller' | 'staff' }) {
  const words = deadlineWords(deadline, viewer);
  const now = useNow();
  const due = new Date(deadline.due_at).getTime();
  const left = now === null ? null : due - now;
  const urgent = left !== null && left < 86_400_000;
  return (
    <div data-testid={`deadline-${deadline.name}`} className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-medium">
          {words.name} <time dateTime={deadline.due_at}>{dateTime(deadline.due_at)}</time>
          {deadline.counted_in === 'business_days' ? <span className="font-normal text-amber-800"> (business days)</span> : null}
        </span>
        <span aria-hidden className={urgent ? 'font-mono font-semibold text-rose-700' : 'font-mono font-semibold'} data-testid="countdown">
          {left === null ? '…' : remaining(left)}
        </span>
        <span className="sr-only">{left === null ? '' : remaining(Math.floor(left / 60_000) * 60_000)}</span>
      </div>
      {words.lapse ? <p className="mt-0.5 text-xs text-amber-900">{words.lapse}</p> : null}
    </div>
  );
}
