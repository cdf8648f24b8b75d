import 'server-only';
import type { Db } from '../db/client';
import { notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { readMilestoneWithLogs, type TransactionGraph } from '../records/transaction-graph/queries';
import { milestoneRecord, milestoneWithLogsRecord } from '../records/transaction-graph/present';

export async function getMilestone(db: Db, client: ClientRow, milestoneId: string) {
  const read = await readMilestoneWithLogs(db, client.id, milestoneId);
  if (!read) throw notFound('Milestone', milestoneId);
  return milestoneWithLogsRecord(read.graph, milestoneId, read.logs);
}

/** The response of every milestone operation: the milestone with its transaction, parties and escrow. */
export function presentMilestone(graph: TransactionGraph, milestoneId: string) {
  return milestoneRecord(graph, milestoneId);
}
