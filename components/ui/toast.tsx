'use client';

import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { cn } from './cn';

type Toast = { id: number; tone: 'success' | 'error'; message: string };
type ToastApi = { success: (message: string) => void; error: (message: string) => void; result: (r: { ok: boolean; message: string }) => void };

const ToastContext = createContext<ToastApi | null>(null);
let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const push = useCallback(
    (tone: Toast['tone'], message: string) => {
      const id = nextId++;
      setToasts((all) => [...all.slice(-3), { id, tone, message }]);
      setTimeout(() => dismiss(id), tone === 'error' ? 10_000 : 6_000);
    },
    [dismiss],
  );
  const api = useMemo<ToastApi>(
    () => ({
      success: (m) => push('success', m),
      error: (m) => push('error', m),
      result: (r) => push(r.ok ? 'success' : 'error', r.message),
    }),
    [push],
  );
  return (
    <ToastContext.Provider value={api}>
      {children}
      {/* Two live regions: failures interrupt (assertive), successes wait their turn (polite). */}
      <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4 sm:items-end sm:pr-6">
        {(['error', 'success'] as const).map((tone) => (
          <div key={tone} role={tone === 'error' ? 'alert' : 'status'} aria-live={tone === 'error' ? 'assertive' : 'polite'} className="flex flex-col gap-2">
            {toasts
              .filter((t) => t.tone === tone)
              .map((t) => (
                <div
                  key={t.id}
                  data-testid={`toast-${t.tone}`}
                  className={cn(
                    'pointer-events-auto flex max-w-md items-start gap-3 rounded-md px-4 py-3 text-sm shadow-lg',
                    t.tone === 'success' ? 'bg-emerald-800 text-white' : 'bg-rose-800 text-white',
                  )}
                >
                  <span className="flex-1">{t.message}</span>
                  <button type="button" onClick={() => dismiss(t.id)} className="text-white/80 hover:text-white" aria-label="Dismiss">
                    ×
                  </button>
                </div>
              ))}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast outside ToastProvider');
  return api;
}
