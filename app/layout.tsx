import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { HoldEarlyActions } from '@/components/ui/hold-early-actions';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Escrow Desk', template: '%s · Escrow Desk' },
  description: 'Escrow per milestone for marketplaces and agencies: the API and the dashboard.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <HoldEarlyActions />
        {children}
      </body>
    </html>
  );
}
