import type { ReactNode } from 'react';

/**
 * Content that may be wider than a phone scrolls sideways in its own box, not the page. The box is focusable and
 * named so a keyboard user can scroll it too.
 */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-emerald-700">
      {children}
    </div>
  );
}
