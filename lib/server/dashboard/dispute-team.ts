import 'server-only';
import type { ArbitrationQueueView, ArbitrationView, OperatorDispute } from '@/lib/contracts/dashboard-disputes';
import { proofFileIds } from '@/lib/contracts/dashboard-plain';
import { operatorEscrow } from '../escrow-client';
import { fromApi, notYours, type Found } from './action';
import type { DisputeDesk } from './actor';
import { proofTokens } from './proof-links';
import type { View } from './views';

export const QUEUE_PAGE_SIZE = 20;

type DisputeTeam = DisputeDesk;

/**
 * The operator key reaches every client's disputes, so what a team member may reach is decided here: the
 * service's dispute team all of them, the demo one (its password is published) only the demo client's
 * (docs/decisions.md §14). Out of reach reads as not found, like another client's record everywhere else.
 */
const reaches = (team: DisputeTeam, dispute: OperatorDispute) =>
  team.disputeClientId === null || dispute.milestone.transaction.clientId === team.disputeClientId;

/**
 * The arbitration queue, oldest first (the operator route's order): the longest-waiting dispute on top.
 * Declined arbitrations are in it too: the team may still decide them before the buyer is refunded.
 */
export async function arbitrationQueue(team: DisputeTeam, page: number): Promise<View<ArbitrationQueueView>> {
  const list = await operatorEscrow.call('GET /operator/disputes', { query: { awaiting_verdict: 'true', client_id: team.disputeClientId ?? undefined, page, limit: QUEUE_PAGE_SIZE } });
  if (!list.ok) return { kind: 'error', failure: list };
  return { kind: 'ok', view: { disputes: list.data.disputes, pagination: list.data.pagination } };
}

/** One dispute with both parties' evidence, through the operator key, if this team member may reach it. */
export async function teamDispute(team: DisputeTeam, id: string): Promise<View<OperatorDispute>> {
  const result = await operatorEscrow.call('GET /operator/disputes/:id', { param: { id } });
  if (!result.ok) return result.status === 404 || result.status === 400 ? { kind: 'not_found' } : { kind: 'error', failure: result };
  return reaches(team, result.data) ? { kind: 'ok', view: result.data } : { kind: 'not_found' };
}

/** For guarded's `owns`: the dispute the input names, if it is within this team member's reach. */
export async function disputeInReach(data: { dispute_id: string }, team: DisputeTeam): Promise<Found<OperatorDispute>> {
  const found = await teamDispute(team, data.dispute_id);
  if (found.kind === 'not_found') return { ok: false, refusal: notYours('Dispute') };
  if (found.kind === 'error') return { ok: false, refusal: fromApi(found.failure) };
  return { ok: true, owned: found.view };
}

export async function arbitrationView(team: DisputeTeam, id: string): Promise<View<ArbitrationView>> {
  const found = await teamDispute(team, id);
  if (found.kind !== 'ok') return found;
  const d = found.view;
  const urls = [...d.evidence.flatMap((e) => e.files.map((f) => f.url)), ...d.milestone.proofs_of_completion, ...d.milestone.proofs_of_return];
  return { kind: 'ok', view: { dispute: d, client_name: null, proof_tokens: proofTokens(team, proofFileIds(urls), new Date()) } };
}
