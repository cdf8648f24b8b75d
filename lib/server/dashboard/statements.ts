import 'server-only';
import type { Checkout, CheckoutsView, StatementView } from '@/lib/contracts/dashboard-statements';
import { lagosMonthOf, monthDays } from '@/lib/escrow/lagos-months';
import { escrowFor } from '../escrow-client';
import type { Actor, ClientActor } from './actor';
import type { View } from './views';

type Customer = Extract<Actor, { kind: 'customer' }>;

/** A month's period for the API, or none: the API's default is the current Lagos month on the client's (test) clock. */
const periodOf = (month: string | undefined) => (month ? (monthDays(month) ?? {}) : {});

/**
 * A wallet's statement for a month (docs/decisions.md §18), read with the actor's own client's key: a customer asks
 * for its own user id, an admin for a customer of its client (another client's is 404 at the API).
 */
export async function statementView(actor: ClientActor, userId: string, month: string | undefined): Promise<View<StatementView>> {
  const result = await escrowFor(actor).call('GET /wallets/:user_id/statement', { param: { user_id: userId }, query: periodOf(month) });
  if (!result.ok) return result.status === 404 ? { kind: 'not_found' } : { kind: 'error', failure: result };
  return { kind: 'ok', view: { statement: result.data, month: lagosMonthOf(new Date(result.data.from)) } };
}

/** The API's CSV of the same statement, as it answered (the route handler checked who may read it). */
export function statementCsv(actor: ClientActor, userId: string, month: string | undefined): Promise<Response> {
  return escrowFor(actor).readStatementCsv(userId, periodOf(month));
}

export const CHECKOUTS_PAGE_SIZE = 20;

/** A customer's card payments, newest first (docs/decisions.md §16). */
export async function customerCheckouts(actor: ClientActor, userId: string, page = 1): Promise<View<CheckoutsView>> {
  const list = await escrowFor(actor).call('GET /checkouts', { query: { user_id: userId, page, limit: CHECKOUTS_PAGE_SIZE } });
  if (!list.ok) return { kind: 'error', failure: list };
  return { kind: 'ok', view: list.data };
}

/**
 * The customer's own checkout the payment page sent the browser back with: looked up among its own newest checkouts,
 * so a reference of someone else's is simply not found. The API's word, never the browser's return alone, says how it went.
 */
export async function myCheckout(actor: Customer, reference: string): Promise<View<Checkout>> {
  const list = await escrowFor(actor).call('GET /checkouts', { query: { user_id: actor.escrowUserId, page: 1, limit: 50 } });
  if (!list.ok) return { kind: 'error', failure: list };
  const found = list.data.checkouts.find((c) => c.reference === reference);
  return found ? { kind: 'ok', view: found } : { kind: 'not_found' };
}
