'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { signOut } from '../auth/next-auth-client';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { NotificationBell } from './notification-bell';

export function AppHeader({ links, name, role, bell = false }: { links: Array<{ href: string; label: string }>; name: string; role: string; bell?: boolean }) {
  const pathname = usePathname();
  const router = useRouter();
  const [leaving, setLeaving] = useState(false);
  return (
    <header className="border-b bg-white">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <Link href="/dashboard" className="font-semibold text-emerald-800">
          Escrow Desk
        </Link>
        <nav aria-label="Main" className="flex flex-1 flex-wrap gap-1">
          {links.map((link) => {
            const active = pathname === link.href || pathname.startsWith(`${link.href}/`);
            return (
              <Link
                key={link.href}
                href={link.href}
                aria-current={active ? 'page' : undefined}
                className={cn('rounded-md px-3 py-1.5 text-sm font-medium', active ? 'bg-emerald-50 text-emerald-900' : 'text-slate-700 hover:bg-slate-100')}
              >
                {link.label}
              </Link>
            );
          })}
        </nav>
        <div className="flex items-center gap-3 text-sm">
          {bell ? <NotificationBell /> : null}
          <span className="text-slate-700">
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
    </header>
  );
}
