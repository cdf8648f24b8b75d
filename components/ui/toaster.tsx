'use client';

import { useEffect, useSyncExternalStore, type CSSProperties } from 'react';
import { Toaster as Sonner } from 'sonner';

const WIDE = '(min-width: 640px)';
const subscribeWide = (change: () => void) => {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', change);
  return () => query.removeEventListener('change', change);
};

// Sonner's stylesheet is in no cascade layer, so utility classes cannot recolour it; its colour variables
// set on the list itself can. The dashboard's colours: white on emerald-800 or rose-800.
const COLOURS = {
  '--success-bg': '#065f46',
  '--success-border': '#065f46',
  '--success-text': '#ffffff',
  '--error-bg': '#9f1239',
  '--error-border': '#9f1239',
  '--error-text': '#ffffff',
  fontFamily: 'inherit',
} as CSSProperties;

/**
 * Sonner's toaster, placed where toasts do not cover what was just pressed: on phones at the top (forms and
 * dialogs end in their buttons), on wider screens at the bottom right, clear of a centred dialog's buttons.
 * Loaded by ./toast, which it tells once it listens.
 */
export default function Toaster({ onReady }: { onReady: () => void }) {
  const wide = useSyncExternalStore(subscribeWide, () => window.matchMedia(WIDE).matches, () => true);
  // Runs after sonner's own effect has subscribed to new toasts.
  useEffect(onReady, [onReady]);
  return (
    <Sonner
      position={wide ? 'bottom-right' : 'top-center'}
      richColors
      closeButton
      visibleToasts={4}
      style={COLOURS}
      // Not sonner's "Notifications": that is the bell's list.
      containerAriaLabel="Messages"
      toastOptions={{ closeButtonAriaLabel: 'Dismiss' }}
    />
  );
}
