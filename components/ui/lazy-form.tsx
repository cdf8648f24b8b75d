'use client';

import { lazy, memo, Suspense, useLayoutEffect, useRef, useState, type ComponentType } from 'react';

type Callback = (...args: unknown[]) => unknown;

/**
 * A form drawn on the server and driven by react-hook-form once its code has loaded, right after hydration,
 * so react-hook-form is not in the page's first-load JavaScript (issue #6). Typed text stays in the
 * server-drawn fields; a submit in the moment before the form's code arrives is held (./hold-early-submit).
 *
 * A Suspense boundary still waiting for its code that receives new props is thrown away and drawn again on
 * the client, which would wipe what the person typed (and a held submit) whenever the page re-renders, as it
 * does when its live data arrives. So the boundary is memoised and callbacks reach it as stable functions
 * that call the latest ones.
 */
export function lazyForm<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Form = lazy(() => load().then((component) => ({ default: component })));
  const Boundary = memo(function Boundary(props: P) {
    return (
      <Suspense fallback={null}>
        <Form {...props} />
      </Suspense>
    );
  });
  function LazyForm(props: P) {
    const latest = useRef(props);
    useLayoutEffect(() => {
      latest.current = props;
    });
    const [stableCallbacks] = useState(() => new Map<string, Callback>());
    const steady: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(props)) {
      if (typeof value !== 'function') {
        steady[name] = value;
        continue;
      }
      if (!stableCallbacks.has(name)) stableCallbacks.set(name, (...args) => (latest.current as Record<string, Callback>)[name]!(...args));
      steady[name] = stableCallbacks.get(name);
    }
    return <Boundary {...(steady as P)} />;
  }
  return LazyForm;
}
