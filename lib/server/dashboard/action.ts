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

type Kind = Actor['kind'];
type ActorOf<K extends Kind> = Extract<Actor, { kind: K }>;

/** What an action acts on once it is found to be the actor's, or the refusal the person hears instead. */
export type Found<O> = { ok: true; owned: O } | { ok: false; refusal: ActionResult<never> };

/** What an action guards, stated once beside it; `guarded` does the checking. */
export type Guard<S extends z.ZodType, K extends Kind, O> = {
  /** The contract the input is parsed with. */
  input: S;
  /** The kinds of account that may run it; any other hears `refused`. */
  role?: K | readonly K[];
  refused?: string;
  /** The record it acts on, looked up with the actor's own client's key (ownership.ts): not theirs is refused. */
  owns?: (data: z.output<S>, actor: ActorOf<K>) => Promise<Found<O>>;
  /** Marked as the viewer's own (reading its notifications): a viewer may run it. */
  viewerMayRun?: boolean;
  /** Refusals put in the form's words (./form-words.ts). */
  words?: FormWords;
};

/** What the handler is handed: the signed-in person, narrowed to `role`, and the record `owns` found. */
export type Guarded<K extends Kind, O> = { actor: ActorOf<K>; owned: O };

const REFUSED = 'Your account may not do this.';

/**
 * The frame of every exported server action: the session is checked (and the account re-read), a viewer
 * is refused (every action changes something, unless it is marked as the viewer's own, like reading
 * notifications), the input is parsed with the contract, then the role and the ownership the action states
 * are checked, and only then the handler runs. A server action is a public POST endpoint; the page that
 * shows its button proves nothing. Whatever is refused, by the contract or by the API, comes back in the
 * words of the form (`words`, ./form-words.ts), never in field names.
 */
export function guarded<S extends z.ZodType, const K extends Kind = Kind, O = undefined, T = undefined>(
  guard: Guard<S, K, O>,
  handler: (data: z.output<S>, context: Guarded<K, O>) => Promise<ActionResult<T>>,
): (input: unknown) => Promise<ActionResult<T>> {
  const roles: readonly Kind[] | undefined = guard.role === undefined ? undefined : typeof guard.role === 'string' ? [guard.role] : guard.role;
  const checked = async (data: z.output<S>, actor: Actor): Promise<ActionResult<T>> => {
    if (roles && !roles.includes(actor.kind)) return notAllowed(guard.refused ?? REFUSED);
    const mine = actor as ActorOf<K>;
    if (!guard.owns) return handler(data, { actor: mine, owned: undefined as O });
    const found = await guard.owns(data, mine);
    return found.ok ? handler(data, { actor: mine, owned: found.owned }) : found.refusal;
  };
  return (input) => run(guard.input, input, checked, guard);
}

/** Session, viewer and contract, then `body`; anything it throws is logged and answered without detail. */
async function run<S extends z.ZodType, T = undefined>(
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
