'use client';

import { useState, type FormEvent } from 'react';
import { useToast } from './toast';

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
 * A form whose rules live in one place, its server action's zod contract (so zod never ships to the
 * browser): the browser's own constraints on the fields (required, type, min, max, step) answer at once,
 * and whatever the contract refuses comes back from the action per field and shows under that field.
 * Field names are the contract's paths (`user.email_address`, `milestones.0.amount`); a field's
 * `data-range-error` words its min/max in money rather than the browser's bare number.
 */
export function useActionForm() {
  const toast = useToast();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  /** onSubmit and onInput for a <form>: checks the fields natively, then runs `onValid` with what was typed. */
  function bind(onValid: (data: FormData, form: HTMLFormElement) => unknown) {
    return {
      noValidate: true,
      async onSubmit(event: FormEvent<HTMLFormElement>) {
        event.preventDefault();
        if (busy) return;
        const form = event.currentTarget;
        const invalid = Array.from(form.elements).filter((el): el is Control => isControl(el) && el.name !== '' && !el.validity.valid);
        const found: Record<string, string> = {};
        for (const el of invalid) found[el.name] ??= ((el.validity.rangeOverflow || el.validity.rangeUnderflow) && el.dataset.rangeError) || el.validationMessage;
        setErrors(found);
        if (invalid[0]) {
          invalid[0].focus();
          return;
        }
        setBusy(true);
        try {
          await onValid(new FormData(form), form);
        } catch {
          toast.error('The request did not go through. Check your connection and try again.');
        } finally {
          setBusy(false);
        }
      },
      // A field being corrected loses its error at once.
      onInput(event: FormEvent<HTMLFormElement>) {
        const name = (event.target as Partial<Control>).name;
        if (!name || !(name in errors)) return;
        setErrors((all) => Object.fromEntries(Object.entries(all).filter(([field]) => field !== name)));
      },
    };
  }

  /** Shows under each field what the action's contract refused (the first message per field). */
  function report(result: Refusal) {
    if (result.ok || !result.errors?.length) return;
    const found: Record<string, string> = {};
    for (const e of result.errors) found[e.field] ??= e.message;
    setErrors(found);
  }

  return {
    bind,
    report,
    busy,
    errors,
    /** A field's message, or the first of its parts' (`files.2` shows under `files`). */
    errorOf: (name: string): string | undefined => errors[name] ?? Object.entries(errors).find(([field]) => field.startsWith(`${name}.`))?.[1],
    setError: (name: string, message: string) => setErrors((all) => ({ ...all, [name]: message })),
  };
}
