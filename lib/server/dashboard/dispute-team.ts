import 'server-only';
import type { ArbitrationQueueView, ArbitrationView } from '@/lib/contracts/dashboard-disputes';
import { escrow } from '../escrow-client';
import type { View } from './views';

export const QUEUE_PAGE_SIZE = 20;

/** The arbitration queue, oldest first (the operator route's order): the longest-waiting dispute on top. */
export async function arbitrationQueue(page: number): Promise<View<ArbitrationQueueView>> {
  const list = await escrow.operator.disputes({ status: 'ARBITRATION', page, limit: QUEUE_PAGE_SIZE });
  if (!list.ok) return { kind: 'error', failure: list };
  return { kind: 'ok', view: { disputes: list.data.disputes, pagination: list.data.pagination } };
}

/** One dispute with both parties' evidence, through the operator key; any client's, as the team serves all. */
export async function arbitrationView(id: string): Promise<View<ArbitrationView>> {
  const result = await escrow.operator.dispute(id);
  if (!result.ok) return result.status === 404 || result.status === 400 ? { kind: 'not_found' } : { kind: 'error', failure: result };
  return { kind: 'ok', view: { dispute: result.data, client_name: null } };
}
