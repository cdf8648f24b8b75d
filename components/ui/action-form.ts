'use client';

import type { FormEvent } from 'react';
import { get, useForm } from 'react-hook-form';
import { toast } from './toast';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
type Refusal = { ok: boolean; errors?: Array<{ field: string; message: string }> };

const isControl = (el: Element): el is Control => el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;

/** A named field's text as typed ('' when absent). */
export const textOf = (data: FormData, name: string): string => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

/** A number field's value; left out when empty, so the contract answers "is required". */
export const numberOf = (data: FormData, name: string): number | undefined => {
  const value = textOf(data, name).trim();
  return value === '' ? undefined : Number(value);
};

/**
 * A react-hook-form form whose rules live in one place, its server action's zod contract (so neither zod nor
 * a resolver ships to the browser): handleSubmit runs the submission and holds isSubmitting; the browser's
 * own constraints on the fields (required, type, min, max, step) answer at once through setError, and
 * whatever the contract refuses comes back from the action per field, also through setError, and shows
 * under that field. Field names are the contract's paths (`user.email_address`, `milestones.0.amount`);
 * a field's `data-range-error` words its min/max in money rather than the browser's bare number.
 */
export function useActionForm() {
  const { handleSubmit, setError, clearErrors, formState } = useForm<Record<string, unknown>>();
  const errors = formState.errors;
  const busy = formState.isSubmitting;

  /** onSubmit and onInput for a <form>: checks the fields natively, then runs `onValid` with what was typed. */
  function bind(onValid: (data: FormData, form: HTMLFormElement) => unknown) {
    return {
      noValidate: true,
      'data-action-form': '',
      // Live now: a submit held while this form's code loaded (./lazy-form) is made again.
      ref(form: HTMLFormElement | null) {
        if (!form || form.dataset.ready) return;
        form.dataset.ready = '1';
        if (form.dataset.pendingSubmit) {
          delete form.dataset.pendingSubmit;
          setTimeout(() => form.requestSubmit(), 0);
        }
      },
      onSubmit(event: FormEvent<HTMLFormElement>) {
        const form = event.currentTarget;
        // Before handleSubmit, which runs nothing while any error is set: a refusal on a field no input
        // clears (the files of an upload, a field whose `min` went away) would otherwise hold the form for good.
        clearErrors();
        return handleSubmit(async () => {
          const invalid = Array.from(form.elements).filter((el): el is Control => isControl(el) && el.name !== '' && !el.validity.valid);
          const seen = new Set<string>();
          for (const el of invalid) {
            if (seen.has(el.name)) continue;
            seen.add(el.name);
            setError(el.name, { type: 'native', message: ((el.validity.rangeOverflow || el.validity.rangeUnderflow) && el.dataset.rangeError) || el.validationMessage });
          }
          if (invalid[0]) {
            invalid[0].focus();
            return;
          }
          try {
            await onValid(new FormData(form), form);
          } catch {
            toast.error('The request did not go through. Check your connection and try again.');
          }
        })(event);
      },
      // A field being corrected loses its error at once.
      onInput(event: FormEvent<HTMLFormElement>) {
        const name = (event.target as Partial<Control>).name;
        if (name && get(errors, name)) clearErrors(name);
      },
    };
  }

  /** Shows under each field what the action's contract refused (the first message per field). */
  function report(result: Refusal) {
    if (result.ok || !result.errors?.length) return;
    const seen = new Set<string>();
    for (const e of result.errors) {
      if (seen.has(e.field)) continue;
      seen.add(e.field);
      setError(e.field, { type: 'server', message: e.message });
    }
  }

  /** The message set on exactly `name`. */
  const messageOf = (name: string): string | undefined => {
    const node = get(errors, name) as { message?: unknown } | undefined;
    return typeof node?.message === 'string' ? node.message : undefined;
  };
  /** The first message at or under a node of RHF's nested errors. */
  const firstUnder = (node: unknown): string | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const message = (node as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'ref') continue;
      const found = firstUnder(child);
      if (found) return found;
    }
    return undefined;
  };
  return {
    bind,
    report,
    busy,
    /** The message on exactly this field (not its parts'). */
    ownError: messageOf,
    /** A field's message, or the first of its parts' (`files.2` shows under `files`). */
    errorOf: (name: string): string | undefined => firstUnder(get(errors, name)),
    setError: (name: string, message: string) => setError(name, { type: 'manual', message }),
    /** Takes a field's message away once what it refused has changed (files chosen or removed). */
    clearError: (name: string) => clearErrors(name),
  };
}
