'use client';

import type { ReactNode } from 'react';
import type { OptionsState } from './options-on-intent';

/**
 * Under a picker whose options load when reached for: that they are on their way, or that they could not be had and a
 * button to ask again; nothing once they are in (a field's hint, which is left out when null).
 */
export function pickerStatus(states: OptionsState[], what: string, retry: () => void): ReactNode {
  if (states.includes('failed')) {
    return (
      <span className="text-rose-700">
        The {what} could not be loaded.{' '}
        <button type="button" onClick={retry} className="underline underline-offset-2">
          Try again
        </button>
      </span>
    );
  }
  return states.includes('loading') ? <span aria-live="polite">Loading the {what}…</span> : null;
}
