import 'server-only';
import type { Db } from '../db/client';
import { notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { loadMilestoneLogs, milestoneRecord, milestoneWithLogsRecord, readGraphOfMilestone, type TransactionGraph } from '../records/transaction-graph';

export async function getMilestone(db: Db, client: ClientRow, milestoneId: string) {
  // The logs are read beside the graph and shown only when the graph says the milestone is this client's.
  const [graph, logs] = await Promise.all([readGraphOfMilestone(db, client.id, milestoneId), loadMilestoneLogs(db, milestoneId)]);
  if (!graph) throw notFound('Milestone', milestoneId);
  return milestoneWithLogsRecord(graph, milestoneId, logs);
}

/** The response of every milestone operation: the milestone with its transaction, parties and escrow. */
export function presentMilestone(graph: TransactionGraph, milestoneId: string) {
  return milestoneRecord(graph, milestoneId);
}
