'use client';

import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { FocusRescue } from './ui/focus-rescue';
import { sessionEnded } from './ui/session-ended';
import { ToastLayer } from './ui/toast';

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
 * hydration, so no page's first-load JavaScript carries it (issue #6). So does the toaster (./ui/toast). The focus rescue
 * is in the first load: an action's code loads after hydration too, and one done before a late rescue arrived left
 * focus on <body> for good.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <ToastLayer />
      <FocusRescue />
      <SessionPromptOnDemand />
    </>
  );
}
