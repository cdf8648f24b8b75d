import type { ReactNode } from 'react';
import { ToastLayer } from '@/components/ui/toast';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <main className="flex min-h-screen items-center justify-center px-4 py-12">
        <div className="w-full max-w-md">
          <p className="mb-6 text-center text-lg font-semibold text-emerald-800">Escrow Desk</p>
          {children}
        </div>
      </main>
      <ToastLayer />
    </>
  );
}
