import 'server-only';
import type { z } from 'zod';
import type { ActionResult, FieldError } from '@/lib/contracts/dashboard';
import type { ApiResult } from '../escrow-client';
import { currentActor, type Actor } from './actor';
import { inFormWords, type FormWords } from './form-words';
import { log } from '../logger';

const fieldErrors = (error: z.ZodError): FieldError[] => error.issues.map((i) => ({ field: i.path.join('.') || '(form)', message: i.message }));

export const SESSION_ENDED_MESSAGE = 'Your session has ended: sign in again to carry on. Nothing was sent.';
export const READ_ONLY_MESSAGE = 'You have read-only access to this marketplace: ask an admin to make this change.';

/**
 * The frame of every exported server action: the input is parsed with the contract, the session is
 * checked (and the account re-read), a viewer is refused (every action changes something, unless it is
 * marked as the viewer's own, like reading notifications), then the body runs. A server action is a
 * public POST endpoint; the page that shows its button proves nothing. Whatever is refused, by the contract
 * or by the API, comes back in the words of the form (`words`, ./form-words.ts), never in field names.
 */
export async function guarded<S extends z.ZodType, T = undefined>(
  schema: S,
  input: unknown,
  body: (data: z.output<S>, actor: Actor) => Promise<ActionResult<T>>,
  options: { viewerMayRun?: boolean; words?: FormWords } = {},
): Promise<ActionResult<T>> {
  const actor = await currentActor();
  // Before the input is read: a signed-out person hears that, not a complaint about the form.
  if (!actor) return { ok: false, message: SESSION_ENDED_MESSAGE, sessionEnded: true };
  // Before the input is read: a viewer is refused whatever it sends.
  if (actor?.kind === 'admin' && actor.readOnly && !options.viewerMayRun) return { ok: false, message: READ_ONLY_MESSAGE };
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    return inFormWords({ ok: false, message: 'Check the form', errors: fieldErrors(parsed.error) }, options.words);
  }
  try {
    return inFormWords(await body(parsed.data, actor), options.words);
  } catch (error) {
    log.error({ msg: 'dashboard action failed', error });
    return { ok: false, message: 'Something went wrong on our side. Try again.' };
  }
}

export const notYours = (what: string): ActionResult<never> => ({ ok: false, message: `${what} was not found.` });
export const notAllowed = (message: string): ActionResult<never> => ({ ok: false, message });

/** The API's own message, for the toast (put in the form's words by `guarded`). */
export function fromApi<T, U = undefined>(result: ApiResult<T>, data?: (value: T) => U): ActionResult<U> {
  if (!result.ok) return { ok: false, message: result.message, ...(result.errors ? { errors: result.errors } : {}) };
  return { ok: true, message: result.message, ...(data ? { data: data(result.data) } : {}) };
}
