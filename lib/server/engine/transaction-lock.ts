import 'server-only';
import type { Tx } from '../db/client';
import type { ClientRow } from '../db/schema';
import { notFound } from '../app-error';
import { applyLapses, lapsesDue } from './apply-lapses';
import {
  loadMilestonesAndDisputesOfMilestone,
  loadMilestonesWithEscrows,
  lockTransactionWithParties,
  type TransactionGraph,
} from '../records/transaction-graph/queries';
import { lockAccountsOfMilestone, type MilestoneAccount } from './post-transfer';

/**
 * Locks the milestone's transaction row for the rest of the database transaction and settles every
 * deadline of it that has lapsed by `now`. Every writer of a transaction's milestones or disputes takes
 * this lock first, so racing requests queue here and the loser sees the winner's state; the milestones
 * are read after the lock, so they are current.
 */
export async function lockTransactionOfMilestone(tx: Tx, client: ClientRow, milestoneId: string, now: Date): Promise<TransactionGraph> {
  return (await lockMilestoneAndAccounts(tx, client, milestoneId, now, [])).graph;
}

/**
 * lockTransactionOfMilestone, and then the milestone's own ledger accounts named by `parts`
 * (lockAccountsOfMilestone), with their balances. The accounts come back only when no deadline was
 * settled first: settling moves money, and the caller then locks what it needs after it.
 */
export async function lockMilestoneAndAccounts(
  tx: Tx,
  client: ClientRow,
  milestoneId: string,
  now: Date,
  parts: readonly MilestoneAccount[],
): Promise<{ graph: TransactionGraph; balances: Map<string, number> }> {
  // The statements are sent at once; the database runs each after the one before has its locks, and
  // reads with a snapshot of its own, so the milestones are as current as if read after the answer.
  const [locked, current, balances] = await Promise.all([
    lockTransactionWithParties(tx, client.id, milestoneId),
    loadMilestonesAndDisputesOfMilestone(tx, milestoneId),
    lockAccountsOfMilestone(tx, { clientId: client.id, milestoneId, parts, now }),
  ]);
  if (!locked) throw notFound('Milestone', milestoneId);
  // A deadline that has passed has already acted, whether or not the runner got there first
  // (docs/decisions.md §5, §6): the request is judged against the state after the lapse.
  const lapses = lapsesDue(current, locked.transaction, now);
  if (lapses.length === 0) return { graph: { ...locked, milestones: current.milestones }, balances };
  // lockAccountsOfMilestone locks nothing when a deadline has passed, so a lapse's transfer takes its
  // accounts in the order every writer takes them; accounts held here would break that order.
  if (balances.size > 0) throw new Error(`accounts of milestone ${milestoneId} were locked ahead of a lapsed deadline`);
  await applyLapses(tx, client, locked.transaction.id, lapses, now);
  const settled = await lockTransactionWithParties(tx, client.id, milestoneId);
  if (!settled) throw notFound('Milestone', milestoneId);
  return { graph: { ...settled, milestones: await loadMilestonesWithEscrows(tx, settled.transaction.id) }, balances };
}
