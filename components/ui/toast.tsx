'use client';

import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { sessionEnded } from './session-ended';

// Sonner and its toaster load right after hydration, so they are in no page's first-load JavaScript
// (issue #6); a toast raised before then waits for the toaster instead of being lost.
const Toaster = lazy(() => import('./toaster'));
let toasterReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => {
  toasterReady = resolve;
});
const sonner = () => Promise.all([import('sonner'), ready]).then(([m]) => m.toast);

/**
 * Toasts (sonner). The specs find them by `toast-success` / `toast-error`; the message carries
 * role=status or role=alert, so a failure interrupts a screen reader and a success waits its turn.
 */
export const toast = {
  success: (message: string) => void sonner().then((s) => s.success(<span role="status">{message}</span>, { testId: 'toast-success', duration: 6_000 })),
  error: (message: string) => void sonner().then((s) => s.error(<span role="alert">{message}</span>, { testId: 'toast-error', duration: 10_000 })),
  /** A result saying the session ended opens the sign-in prompt over the page instead of a toast. */
  result: (r: { ok: boolean; message: string; sessionEnded?: boolean }) => (r.sessionEnded ? sessionEnded.signal() : r.ok ? toast.success(r.message) : toast.error(r.message)),
};

// A modal <dialog> sits in the browser's top layer and makes everything outside it inert: a toaster fixed
// on the page would show dimmed behind its ::backdrop and be hidden from screen readers. So the toaster's
// element moves into the topmost open modal dialog (still fixed to the viewport, now above the backdrop and
// not inert) and back to <body> when the dialog closes. Toasts already shown stay: React keeps rendering
// into the same element wherever it is.
let host: HTMLElement | null = null;
const modals: HTMLDialogElement[] = [];

function placeHost() {
  if (!host) return;
  const top = modals.findLast((d) => d.isConnected && d.open);
  const parent = top ?? document.body;
  if (host.parentElement !== parent) parent.appendChild(host);
}

/** Told by components/ui/dialog right after showModal(), and after close() or when the dialog leaves the page. */
export const toastLayer = {
  enter(dialog: HTMLDialogElement) {
    if (!modals.includes(dialog)) modals.push(dialog);
    placeHost();
  },
  leave(dialog: HTMLDialogElement) {
    const i = modals.indexOf(dialog);
    if (i !== -1) modals.splice(i, 1);
    placeHost();
  },
};

const hostListeners = new Set<() => void>();
const subscribeHost = (change: () => void) => {
  hostListeners.add(change);
  return () => void hostListeners.delete(change);
};

/** The one toaster of a layout. */
export function ToastLayer() {
  const element = useSyncExternalStore(subscribeHost, () => host, () => null);
  useEffect(() => {
    const el = document.createElement('div');
    el.dataset.toastLayer = '';
    host = el;
    placeHost();
    hostListeners.forEach((change) => change());
    return () => {
      el.remove();
      if (host === el) host = null;
      hostListeners.forEach((change) => change());
    };
  }, []);
  if (!element) return null;
  return createPortal(
    <Suspense fallback={null}>
      <Toaster onReady={toasterReady} />
    </Suspense>,
    element,
  );
}
