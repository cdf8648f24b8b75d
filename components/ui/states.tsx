import type { ReactNode } from 'react';
import { Spinner } from './spinner';

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="flex items-center justify-center py-10 text-slate-600">
      <Spinner label={label} />
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed bg-white px-6 py-10 text-center">
      <p className="font-medium text-slate-800">{title}</p>
      {children ? <div className="mt-2 text-sm text-slate-600">{children}</div> : null}
    </div>
  );
}

export function ErrorState({ title = 'This could not be loaded', message, retry }: { title?: string; message: string; retry?: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-5 py-4 text-rose-900">
      <p className="font-medium">{title}</p>
      <p className="mt-1 text-sm">{message}</p>
      {retry ? (
        <button type="button" onClick={retry} className="mt-3 text-sm font-medium underline underline-offset-2">
          Try again
        </button>
      ) : null}
    </div>
  );
}
