import 'server-only';
import type { Dispute, Milestone, Transaction, Viewer } from '@/lib/contracts/dashboard';
import { escrowFor, type ApiFailure, type ApiResult, type EscrowClient } from '../escrow-client';
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

export async function transactionFor(actor: Actor, id: string): Promise<Owned<Transaction>> {
  return owned(actor, (api) => api.transactions.get(id), (t) => t);
}

export async function milestoneFor(actor: Actor, id: string): Promise<Owned<Milestone>> {
  return owned(actor, (api) => api.milestones.get(id), (m) => m.transaction);
}

export async function disputeFor(actor: Actor, id: string): Promise<Owned<Dispute>> {
  return owned(actor, (api) => api.disputes.get(id), (d) => d);
}

/** The id the API takes as buyer_id/seller_id for this person; admins act as the buyer only to fund. */
export function actingUserId(record: { viewer: Viewer }, transaction: Parties, role: 'buyer' | 'seller'): string | null {
  if (record.viewer !== role && record.viewer !== 'admin') return null;
  return role === 'buyer' ? transaction.buyer.user_id : transaction.seller.user_id;
}
