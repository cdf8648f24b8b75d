'use client';

import { useState, type ReactNode } from 'react';
import { Button } from './button';

/**
 * A secret or one-time link shown only now (only its hash is kept): read-only, selected on focus, with a
 * Copy button, and a way to put it away once kept.
 */
export function ShownOnce({ title, label, value, testId, onDismiss, dismissLabel = 'I have kept it' }: {
  title: ReactNode;
  label: string;
  value: string;
  testId?: string;
  onDismiss?: () => void;
  dismissLabel?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm">
      <p className="font-medium text-emerald-900">{title}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input readOnly value={value} aria-label={label} data-testid={testId} className="min-w-0 flex-1 rounded border bg-white px-2 py-1 font-mono text-xs" onFocus={(e) => e.target.select()} />
        <Button
          size="sm"
          variant="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(value).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        {onDismiss ? (
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            {dismissLabel}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
