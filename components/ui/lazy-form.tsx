'use client';

import { lazy, memo, Suspense, useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';

type Callback = (...args: unknown[]) => unknown;

/**
 * A Suspense boundary still waiting for its code that receives new props is thrown away and drawn again on
 * the client, which would wipe what the person typed (and a held submit or click) whenever the page
 * re-renders, as it does when its live data arrives. So the boundary is memoised and callbacks reach it as
 * stable functions that call the latest ones.
 */
function withSteadyProps<P extends object>(Boundary: ComponentType<P>): ComponentType<P> {
  const Memoised = memo(Boundary);
  return function Steady(props: P) {
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
    return <Memoised {...(steady as P)} />;
  };
}

/**
 * A form drawn on the server and driven by react-hook-form once its code has loaded, right after hydration,
 * so react-hook-form is not in the page's first-load JavaScript (issue #6). Typed text stays in the
 * server-drawn fields; a submit in the moment before the form's code arrives is held (./hold-early-actions).
 */
export function lazyForm<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Form = lazy(() => load().then((component) => ({ default: component })));
  return withSteadyProps(function FormBoundary(props: P) {
    return (
      <Suspense fallback={null}>
        <Form {...props} />
      </Suspense>
    );
  });
}

/** Tells its part once the code inside has hydrated. */
function OnLive({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

/** Marks the part live and makes again the clicks held until then. */
function goLive(host: HTMLElement | null) {
  if (!host) return;
  host.dataset.ready = '1';
  for (const held of host.querySelectorAll<HTMLElement>('[data-pending-click]')) {
    delete held.dataset.pendingClick;
    held.click();
  }
}

/**
 * A part of a page (a group of buttons and what they open) drawn on the server whose code loads right after
 * hydration, so it is not in the page's first-load JavaScript (issue #6). React does not replay a click on a
 * part still waiting for its code, so such a click is held (./hold-early-actions) and made again once it is live.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Part = lazy(() => load().then((component) => ({ default: component })));
  return withSteadyProps(function PartBoundary(props: P) {
    const host = useRef<HTMLDivElement>(null);
    const [markLive] = useState(() => () => goLive(host.current));
    return (
      <div ref={host} data-lazy-part className="contents">
        <Suspense fallback={null}>
          <Part {...props} />
          <OnLive run={markLive} />
        </Suspense>
      </div>
    );
  });
}
