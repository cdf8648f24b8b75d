import 'server-only';
import type { Db } from '../db/client';
import { notFound } from '../http/app-error';
import type { ClientRow } from '../http/auth';
import { graphOfTransaction, loadMilestoneLogs, milestoneRecord, milestoneWithLogsRecord, transactionOfMilestone, type TransactionGraph } from '../records/transaction-graph';

export async function getMilestone(db: Db, client: ClientRow, milestoneId: string) {
  const transaction = await transactionOfMilestone(db, client.id, milestoneId);
  if (!transaction) throw notFound('Milestone', milestoneId);
  const [graph, logs] = await Promise.all([graphOfTransaction(db, transaction), loadMilestoneLogs(db, milestoneId)]);
  return milestoneWithLogsRecord(graph, milestoneId, logs);
}

/** The response of every milestone operation: the milestone with its transaction, parties and escrow. */
export function presentMilestone(graph: TransactionGraph, milestoneId: string) {
  return milestoneRecord(graph, milestoneId);
}
