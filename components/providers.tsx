'use client';

import type { ReactNode } from 'react';
import { QueryStoreProvider } from './ui/query';
import { ToastProvider } from './ui/toast';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryStoreProvider>
      <ToastProvider>{children}</ToastProvider>
    </QueryStoreProvider>
  );
}
