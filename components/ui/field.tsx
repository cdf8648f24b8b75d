import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from './cn';

const control =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 ' +
  'focus:border-emerald-600 focus:outline-none focus:ring-2 focus:ring-emerald-600/30 aria-[invalid=true]:border-rose-500 disabled:bg-slate-100';

type FieldShell = { label: ReactNode; error?: string; hint?: ReactNode; className?: string };

/** Label, control, hint and error tied together with htmlFor/aria-describedby so screen readers read them all. */
function Shell({ id, label, error, hint, className, children }: FieldShell & { id: string; children: ReactNode }) {
  return (
    <div className={cn('space-y-1', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode) {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

export function TextField({ label, error, hint, className, id: given, ...input }: FieldShell & ComponentProps<'input'>) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Shell id={id} label={label} error={error} hint={hint} className={className}>
      <input id={id} className={control} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} {...input} />
    </Shell>
  );
}

export function TextAreaField({ label, error, hint, className, id: given, ...input }: FieldShell & ComponentProps<'textarea'>) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Shell id={id} label={label} error={error} hint={hint} className={className}>
      <textarea id={id} rows={3} className={control} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} {...input} />
    </Shell>
  );
}

export function SelectField({ label, error, hint, className, id: given, children, ...input }: FieldShell & ComponentProps<'select'>) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Shell id={id} label={label} error={error} hint={hint} className={className}>
      <select id={id} className={control} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} {...input}>
        {children}
      </select>
    </Shell>
  );
}
