'use client';

import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { markAllRead, markRead } from '@/lib/actions/notifications';
import type { NotificationsView } from '@/lib/contracts/dashboard-disputes';
import { Button } from '../ui/button';
import { fetchJson } from '../ui/fetch-json';
import { invalidate, setQueryData, useLiveQuery } from '../live/live-query';
import { toast } from '../ui/toast';

// The list is drawn only when the bell is opened: its code loads then (or when the bell is pointed at),
// not with every page (issue #6).
const loadList = () => import('./notification-list');
const NotificationList = lazy(loadList);

/** The header's bell: polls like every page (components/ui/query), and opening it marks everything shown as read. */
export function NotificationBell() {
  const query = useLiveQuery({ queryKey: ['notifications'], queryFn: () => fetchJson<NotificationsView>('/data/notifications') });
  const [open, setOpen] = useState(false);
  // The lines as they were when opened, so the new ones stay marked while the list is open.
  const [shown, setShown] = useState<NotificationsView | null>(null);
  const [markingAll, setMarkingAll] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const bell = useRef<HTMLButtonElement>(null);
  const unread = query.data?.unread ?? 0;

  useEffect(() => {
    if (!open) return;
    // Focus in the list that is going goes back to the bell rather than down to <body>.
    const close = () => {
      if (box.current?.contains(document.activeElement)) bell.current?.focus();
      setOpen(false);
    };
    const away = (e: MouseEvent) => box.current && !box.current.contains(e.target as Node) && close();
    const escape = (e: KeyboardEvent) => e.key === 'Escape' && close();
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  async function toggle() {
    if (open) return setOpen(false);
    setShown(query.data ?? null);
    setOpen(true);
    // The cached list can be a poll old (a move made a moment ago in this very tab): what a person
    // opens, and what is marked read, is the list as it stands now.
    const data = (await query.refetch()).data ?? query.data ?? null;
    setShown(data);
    if (data?.newest && data.unread > 0) {
      const result = await markRead({ through: data.newest });
      if (result.ok) void setQueryData<NotificationsView>(['notifications'], (old) => (old ? { ...old, unread: 0, items: old.items.map((i) => ({ ...i, unread: false })) } : old));
      void invalidate(['notifications']);
    }
  }

  const allRead = (old: NotificationsView | null | undefined) => (old ? { ...old, unread: 0, items: old.items.map((i) => ({ ...i, unread: false })) } : old);

  async function readAll() {
    setMarkingAll(true);
    try {
      const result = await markAllRead({});
      if (!result.ok) return void toast.error(result.message);
      void setQueryData<NotificationsView>(['notifications'], (old) => allRead(old) ?? old);
      setShown((old) => allRead(old) ?? null);
      void invalidate(['notifications']);
    } catch {
      toast.error('The request did not go through. Check your connection and try again.');
    } finally {
      setMarkingAll(false);
    }
  }

  const view = shown ?? query.data;
  const anyUnread = unread > 0 || (view?.items.some((i) => i.unread) ?? false);
  return (
    <div className="relative" ref={box}>
      <button
        ref={bell}
        type="button"
        onClick={() => void toggle()}
        aria-expanded={open}
        aria-controls="notifications-panel"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        data-testid="notification-bell"
        onPointerEnter={() => void loadList()}
        onFocus={() => void loadList()}
        className="relative rounded-md p-1.5 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-700"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={1.8}>
          <path d="M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 1 0-12 0v3.2a2 2 0 0 1-.6 1.4L4 17h5m6 0v1a3 3 0 1 1-6 0v-1m6 0H9" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {unread > 0 ? (
          <span data-testid="notification-count" className="absolute -right-1 -top-1 min-w-[1.1rem] rounded-full bg-rose-600 px-1 text-center text-[0.7rem] font-semibold leading-[1.1rem] text-white">
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <div
          id="notifications-panel"
          role="region"
          aria-label="Notifications"
          className="absolute right-0 z-20 mt-2 w-[min(24rem,calc(100vw-2rem))] rounded-lg border bg-white shadow-lg"
        >
          <div className="flex items-center justify-between gap-2 border-b px-4 py-2">
            <p className="text-sm font-semibold text-slate-900">Notifications</p>
            <Button size="sm" variant="ghost" loading={markingAll} disabled={!anyUnread} onClick={() => void readAll()}>
              Mark all read
            </Button>
          </div>
          {query.isError && !view ? <p className="px-4 py-3 text-sm text-rose-700">{query.error.message}</p> : null}
          <Suspense fallback={<p className="px-4 py-3 text-sm text-slate-600">Loading…</p>}>
            {view ? <NotificationList view={view} onNavigate={() => setOpen(false)} /> : null}
          </Suspense>
        </div>
      ) : null}
    </div>
  );
}
