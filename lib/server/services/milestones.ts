import 'server-only';
import type { Db } from '../db/client';
import { notFound } from '../http/app-error';
import type { ClientRow } from '../http/auth';
import { loadMilestoneLogs, loadTransactionGraph, milestoneRecord, milestoneWithLogsRecord, transactionIdOfMilestone, type TransactionGraph } from '../records/transaction-graph';

export async function getMilestone(db: Db, client: ClientRow, milestoneId: string) {
  const transactionId = await transactionIdOfMilestone(db, client.id, milestoneId);
  const graph = transactionId ? await loadTransactionGraph(db, client.id, transactionId) : undefined;
  if (!graph) throw notFound('Milestone', milestoneId);
  return milestoneWithLogsRecord(graph, milestoneId, await loadMilestoneLogs(db, milestoneId));
}

/** The response of every milestone operation: the milestone with its transaction, parties and escrow. */
export function presentMilestone(graph: TransactionGraph, milestoneId: string) {
  return milestoneRecord(graph, milestoneId);
}
