import 'server-only';
import type { Dispute, Milestone, User, Viewer } from '@/lib/contracts/dashboard';
import type { TransactionDetailRecord } from '@/lib/contracts/records';
import { escrowFor, type ApiFailure, type ApiResult, type EscrowClient } from '../escrow-client';
import { fromApi, notAllowed, notYours, type Found } from './action';
import type { Actor, ClientActor } from './actor';

/**
 * What a signed-in person may see: an admin everything of its client (the API key is that client's, so the
 * API already answers 404 for any other client's id); a customer only what it is the buyer or seller of.
 * Not being a party reads as "not found", the same answer as another client's record.
 */
/** `api`: the client's own API client, to act on the record with. */
export type Owned<T> = { kind: 'ok'; record: T; viewer: Viewer; api: EscrowClient } | { kind: 'not_found' } | { kind: 'error'; failure: ApiFailure };

type Parties = { buyer: { user_id: string }; seller: { user_id: string } };

export function viewerOf(actor: ClientActor, parties: Parties): Viewer | null {
  if (actor.kind === 'admin') return 'admin';
  if (parties.buyer.user_id === actor.escrowUserId) return 'buyer';
  if (parties.seller.user_id === actor.escrowUserId) return 'seller';
  return null;
}

/**
 * A record through the actor's own client's key. The operator and the dispute team are parties of no
 * client's records (they read disputes through the operator routes): not found, like another client's.
 */
async function owned<T>(actor: Actor, fetch: (api: EscrowClient) => Promise<ApiResult<T>>, parties: (record: T) => Parties): Promise<Owned<T>> {
  if (!('clientId' in actor)) return { kind: 'not_found' };
  const api = escrowFor(actor);
  const result = await fetch(api);
  if (!result.ok) return result.status === 404 || result.status === 400 ? { kind: 'not_found' } : { kind: 'error', failure: result };
  const viewer = viewerOf(actor, parties(result.data));
  return viewer ? { kind: 'ok', record: result.data, viewer, api } : { kind: 'not_found' };
}

/** `include`: what the API adds to the record (GET /v1/transactions/{id}?include=…), so the page needs no other read. */
export async function transactionFor(actor: Actor, id: string, include?: string): Promise<Owned<TransactionDetailRecord>> {
  return owned(actor, (api) => api.call('GET /transactions/:id', { param: { id }, ...(include ? { query: { include } } : {}) }), (t) => t);
}

export async function milestoneFor(actor: Actor, id: string): Promise<Owned<Milestone>> {
  return owned(actor, (api) => api.call('GET /milestones/:id', { param: { id } }), (m) => m.transaction);
}

export async function disputeFor(actor: Actor, id: string): Promise<Owned<Dispute>> {
  return owned(actor, (api) => api.call('GET /dispute/:id', { param: { id } }), (d) => d);
}

/** The id the API takes as buyer_id/seller_id for this person; admins act as the buyer only to fund. */
export function actingUserId(record: { viewer: Viewer }, transaction: Parties, role: 'buyer' | 'seller'): string | null {
  if (record.viewer !== role && record.viewer !== 'admin') return null;
  return role === 'buyer' ? transaction.buyer.user_id : transaction.seller.user_id;
}

/** A record found to be the actor's, with the place `V` it acts in and its client's API client. */
export type OwnedBy<T, V extends Viewer> = { record: T; viewer: V; api: EscrowClient };

/** Not the actor's reads as not found; the actor's but in another place than `by` is refused with `refused`. */
async function ownedBy<T, V extends Viewer>(lookup: Promise<Owned<T>>, what: string, by: readonly V[], refused: string): Promise<Found<OwnedBy<T, V>>> {
  const owned = await lookup;
  if (owned.kind !== 'ok') return { ok: false, refusal: notYours(what) };
  const viewer = owned.viewer as V;
  if (!by.includes(viewer)) return { ok: false, refusal: notAllowed(refused) };
  return { ok: true, owned: { record: owned.record, viewer, api: owned.api } };
}

// For guarded's `owns`: the record the input names, if the signed-in person is one of `by` on it.
export const milestoneBy =
  <const V extends Viewer>(by: readonly V[], refused: string) =>
  (data: { milestone_id: string }, actor: Actor) =>
    ownedBy(milestoneFor(actor, data.milestone_id), 'Milestone', by, refused);

export const transactionBy =
  <const V extends Viewer>(by: readonly V[], refused: string) =>
  (data: { transaction_id: string }, actor: Actor) =>
    ownedBy(transactionFor(actor, data.transaction_id), 'Transaction', by, refused);

export const disputeBy =
  <const V extends Viewer>(by: readonly V[], refused: string) =>
  (data: { dispute_id: string }, actor: Actor) =>
    ownedBy(disputeFor(actor, data.dispute_id), 'Dispute', by, refused);

/** For guarded's `owns`: the customer the input names, read with the client's own key (another client's is 404). */
export async function customerOf(data: { user_id: string }, actor: ClientActor): Promise<Found<User>> {
  const user = await escrowFor(actor).call('GET /users/:id', { param: { id: data.user_id } });
  return user.ok ? { ok: true, owned: user.data } : { ok: false, refusal: fromApi(user) };
}
