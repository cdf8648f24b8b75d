'use client';

import { lazy, Suspense, useEffect, type ComponentType } from 'react';

/**
 * A form drawn on the server and driven by react-hook-form once its code has loaded, right after hydration,
 * so react-hook-form is not in the page's first-load JavaScript (issue #6). Typed text stays in the
 * server-drawn fields; a submit in the moment before the form's code arrives is held, not sent natively,
 * and made again once the form is live (useActionForm marks its forms `data-action-form`, and `data-ready`
 * when they are).
 */
function holdEarlySubmit(event: SubmitEvent) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-action-form') || form.dataset.ready) return;
  event.preventDefault();
  form.dataset.pendingSubmit = '1';
}

export function lazyForm<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Form = lazy(() => load().then((component) => ({ default: component })));
  function LazyForm(props: P) {
    useEffect(() => {
      document.addEventListener('submit', holdEarlySubmit, true);
      return () => document.removeEventListener('submit', holdEarlySubmit, true);
    }, []);
    return (
      <Suspense fallback={null}>
        <Form {...props} />
      </Suspense>
    );
  }
  return LazyForm;
}
