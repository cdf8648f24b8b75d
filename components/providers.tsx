'use client';

import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { sessionEnded } from './ui/session-ended';
import { ToastLayer } from './ui/toast';

// Focus rescue matters only once someone acts on the page: it loads right after hydration.
const FocusRescue = lazy(() => import('./ui/focus-rescue').then((m) => ({ default: m.FocusRescue })));
const SessionPrompt = lazy(() => import('./auth/session-prompt').then((m) => ({ default: m.SessionPrompt })));

/** The sign-in prompt's code loads only once a session has ended on this page. */
function SessionPromptOnDemand() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => sessionEnded.subscribe(() => setWanted(true)), []);
  return wanted ? (
    <Suspense fallback={null}>
      <SessionPrompt />
    </Suspense>
  ) : null;
}

/**
 * The dashboard's data layer is @tanstack/react-query (components/live): its client loads right after
 * hydration, so no page's first-load JavaScript carries it (issue #6). So do the toaster (./ui/toast) and the focus rescue.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <ToastLayer />
      <Suspense fallback={null}>
        <FocusRescue />
      </Suspense>
      <SessionPromptOnDemand />
    </>
  );
}
