'use client';

import type { ReactNode } from 'react';
import { FocusRescue } from './ui/focus-rescue';
import { ToastLayer } from './ui/toast';

/**
 * The dashboard's data layer is @tanstack/react-query (components/live): its client loads right after
 * hydration, so no page's first-load JavaScript carries it (issue #6). So does the toaster (./ui/toast).
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <ToastLayer />
      <FocusRescue />
    </>
  );
}
