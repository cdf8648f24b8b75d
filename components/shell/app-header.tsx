'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { signOut } from '../auth/next-auth-client';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { NotificationBell } from './notification-bell';

/**
 * Wide screens (lg and up): the links, the person and "Sign out" in one row. Below that the row holds the brand,
 * the bell and a "Menu" button that opens the very same links and person under it, so a phone's header stays one
 * row tall instead of wrapping into four.
 */
export function AppHeader({ links, name, role, bell = false }: { links: Array<{ href: string; label: string }>; name: string; role: string; bell?: boolean }) {
  const pathname = usePathname();
  const router = useRouter();
  const [leaving, setLeaving] = useState(false);
  // The menu is open for the page it was opened on: any navigation (a link, the back button) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const escape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpenOn(null);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', escape);
    return () => document.removeEventListener('keydown', escape);
  }, [open]);

  return (
    <header className="border-b bg-white">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <Link href="/dashboard" className="font-semibold text-emerald-800">
          Escrow Desk
        </Link>
        <div className="ml-auto flex items-center gap-2 lg:order-2 lg:ml-0">
          {bell ? <NotificationBell /> : null}
          <Button
            ref={menuButton}
            variant="secondary"
            size="sm"
            className="lg:hidden"
            aria-expanded={open}
            aria-controls="app-menu"
            onClick={() => setOpenOn(open ? null : pathname)}
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round">
              {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
            </svg>
            Menu
          </Button>
        </div>
        {/* lg:contents: on wide screens the links and the person are items of the header's row themselves. */}
        <div
          id="app-menu"
          className={cn('w-full basis-full flex-col gap-3 border-t pt-3 lg:contents', open ? 'flex' : 'hidden')}
        >
          <nav aria-label="Main" className="flex flex-col gap-1 lg:order-1 lg:flex-1 lg:flex-row lg:flex-wrap">
            {links.map((link) => {
              const active = pathname === link.href || pathname.startsWith(`${link.href}/`);
              return (
                <Link
                  key={link.href}
                  href={link.href}
                  aria-current={active ? 'page' : undefined}
                  onClick={() => setOpenOn(null)}
                  className={cn('rounded-md px-3 py-2 text-sm font-medium lg:py-1.5', active ? 'bg-emerald-50 text-emerald-900' : 'text-slate-700 hover:bg-slate-100')}
                >
                  {link.label}
                </Link>
              );
            })}
          </nav>
          <div className="flex flex-wrap items-center justify-between gap-3 border-t px-3 pt-3 text-sm lg:order-3 lg:border-0 lg:px-0 lg:pt-0">
            <span className="min-w-0 break-words text-slate-700">
              {name} <span className="text-slate-500">· {role}</span>
            </span>
            <Button
              variant="secondary"
              size="sm"
              loading={leaving}
              onClick={async () => {
                setLeaving(true);
                await signOut();
                router.replace('/login');
                router.refresh();
              }}
            >
              Sign out
            </Button>
          </div>
        </div>
      </div>
    </header>
  );
}
