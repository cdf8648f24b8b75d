import 'server-only';
import { currentActor, type Actor } from './actor';
import type { View } from './views';
import { log } from '../logger';

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { 'cache-control': 'private, no-store' } });

/** The dashboard's data routes: signed in, or 401; the handler decides what this person may read. */
export function withActor<C>(handler: (actor: Actor, request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    const actor = await currentActor();
    if (!actor) return json(401, { message: 'Your session has ended. Sign in again.' });
    try {
      return await handler(actor, request, context);
    } catch (error) {
      log.error({ msg: 'dashboard data route failed', error });
      return json(500, { message: 'Something went wrong on our side.' });
    }
  };
}

export function viewResponse<T>(view: View<T>, what: string): Response {
  if (view.kind === 'ok') return json(200, view.view);
  if (view.kind === 'not_found') return json(404, { message: `${what} was not found.` });
  return json(502, { message: view.failure.message });
}

export const forbidden = () => json(403, { message: 'This page is for another kind of account.' });
export const badRequest = (message: string) => json(400, { message });
export { json };
