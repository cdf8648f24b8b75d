'use client';

import { useSyncExternalStore } from 'react';
import { useClockOffset } from './client-clock';

// One shared one-second clock for every countdown on the page.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  now = Date.now();
  timer ??= setInterval(() => {
    now = Date.now();
    listeners.forEach((l) => l());
  }, 1000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The client's current time (its test clock in the sandbox), ticking each second; null while server-rendering (the two clocks differ). */
export function useNow(): number | null {
  const offset = useClockOffset();
  const wall = useSyncExternalStore(subscribe, () => now, () => null);
  return wall === null ? null : wall + offset;
}
