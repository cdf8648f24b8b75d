import type { ButtonHTMLAttributes, Ref } from 'react';
import { cn } from './cn';
import { Spinner } from './spinner';

const VARIANTS = {
  primary: 'bg-emerald-700 text-white hover:bg-emerald-800 focus-visible:outline-emerald-700',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:outline-slate-500',
  danger: 'bg-rose-700 text-white hover:bg-rose-800 focus-visible:outline-rose-700',
  ghost: 'text-slate-700 hover:bg-slate-100 focus-visible:outline-slate-500',
} as const;

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  ref?: Ref<HTMLButtonElement>;
  variant?: keyof typeof VARIANTS;
  size?: 'sm' | 'md';
  loading?: boolean;
};

export function buttonClasses(variant: keyof typeof VARIANTS = 'primary', size: 'sm' | 'md' = 'md', extra?: string) {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-md font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60 aria-busy:cursor-wait aria-busy:opacity-60',
    size === 'sm' ? 'px-2.5 py-1.5 text-sm' : 'px-4 py-2 text-sm',
    VARIANTS[variant],
    extra,
  );
}

/**
 * While its action is sent (`loading`) the button keeps its focus: it is marked aria-disabled and ignores
 * clicks (a submit's too) instead of being disabled, since disabling the focused element drops focus on
 * <body> at once, before anything on the page can put it back.
 */
export function Button({ variant = 'primary', size = 'md', loading = false, className, children, disabled, type = 'button', onClick, ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClasses(variant, size, className)}
      disabled={disabled}
      aria-disabled={loading || undefined}
      aria-busy={loading || undefined}
      onClick={loading ? (event) => event.preventDefault() : onClick}
      {...rest}
    >
      {loading ? <Spinner /> : null}
      {children}
    </button>
  );
}
