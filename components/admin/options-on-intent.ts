'use client';

import { useCallback, useRef, useState } from 'react';
import { fetchJson } from '../ui/fetch-json';

export type CustomerOption = { id: string; name: string; firstName?: string; lastName?: string };
export type OptionsState = 'idle' | 'loading' | 'ready' | 'failed';

/**
 * A picker's options (customers, banks), asked for when the person first reaches for it (pointer over it, focus,
 * touch) rather than with the page: most visits never open it, and each page load asks the API at most twice
 * (issue #60). `intent` goes on the picker or on the form around it.
 */
export function useOptionsOnIntent<T>(url: string) {
  const [options, setOptions] = useState<T[]>([]);
  const [state, setState] = useState<OptionsState>('idle');
  const asked = useRef(false);
  const want = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    setState('loading');
    fetchJson<T[]>(url).then(
      (list) => {
        setOptions(list);
        setState('ready');
      },
      () => {
        // Asked again at the next reach.
        asked.current = false;
        setState('failed');
      },
    );
  }, [url]);
  return { options, state, retry: want, intent: { onFocus: want, onPointerEnter: want, onPointerDown: want } };
}
