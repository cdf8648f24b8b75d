import 'server-only';
import { formatLagosDateTime } from '@/lib/escrow/business-days';
import { decideExtensionAnswer, pendingExtension, type Extension } from '@/lib/escrow/extensions';
import type { MilestoneStatus } from '@/lib/escrow/milestone-machine';
import type { Tx } from '../db/client';
import type { ClientRow } from '../db/schema';
import type { EventType } from '../events/record-event';
import { AppError } from '../app-error';
import { findMilestone, type MilestoneRow, type TransactionGraph } from '../records/transaction-graph/queries';
import { extensionJsonOf, extensionOf } from '../records/transaction-graph/domain';
import { milestoneRecord } from '../records/transaction-graph/present';
import { writeStep, type LogActor } from './milestone-action';

/** A milestone as the extension rules read it. */
export function extensionMilestoneOf(m: MilestoneRow) {
  return { status: m.status as MilestoneStatus, dueDate: m.dueDate, extensions: m.extensions.map(extensionOf) };
}

export type ExtensionChange = {
  extensions: Extension[];
  dueDate?: Date;
  currentExtensionIndex?: number | null;
  /** When the buyer's answer is due; null once nothing is pending. */
  responseDueAt: Date | null;
  log: { actor: LogActor; message: string; automatic: boolean };
  event: EventType;
};

/** The milestone's extensions, due date and answer deadline, its log line and the event, as one statement (writeStep). */
export function writeExtensionChange(tx: Tx, client: ClientRow, graph: TransactionGraph, milestoneId: string, change: ExtensionChange, now: Date) {
  const { actor, automatic, message } = change.log;
  return writeStep(tx, {
    client,
    graph,
    milestoneId,
    now,
    milestone: {
      extensions: change.extensions.map(extensionJsonOf),
      extensionResponseDueAt: change.responseDueAt,
      ...(change.dueDate ? { dueDate: change.dueDate } : {}),
      ...(change.currentExtensionIndex !== undefined ? { currentExtensionIndex: change.currentExtensionIndex } : {}),
    },
    log: change.log,
    event: { type: change.event, data: (after) => ({ actor, automatic, message, milestone: milestoneRecord(after, milestoneId) }) },
  });
}

/** The buyer's (or the service's) answer to the pending request, by the rules; 409 when there is none to give. */
export function answerPending(m: MilestoneRow, how: 'approve' | 'decline', now: Date) {
  const decision = decideExtensionAnswer(extensionMilestoneOf(m), how, now);
  if (!decision.ok) throw new AppError(decision.code, decision.message);
  return decision;
}

/**
 * The service's answer to an extension request left unanswered past its deadline, or pending when its
 * transaction ends (a canceled milestone has no due date to move): declined, inside the transaction that
 * holds the transaction's row lock; written before this returns.
 */
export async function declineUnansweredExtension(tx: Tx, client: ClientRow, graph: TransactionGraph, milestoneId: string, now: Date, why: string): Promise<TransactionGraph> {
  const m = findMilestone(graph, milestoneId).milestone;
  if (!pendingExtension(extensionMilestoneOf(m))) return graph;
  const decision = answerPending(m, 'decline', now);
  const { graph: after, written } = writeExtensionChange(
    tx,
    client,
    graph,
    milestoneId,
    {
      extensions: decision.extensions,
      responseDueAt: null,
      log: { actor: 'system', automatic: true, message: `The seller's extension request was declined automatically: ${why}. The milestone stays due ${formatLagosDateTime(m.dueDate)}.` },
      event: 'milestone.extension_declined',
    },
    now,
  );
  await written;
  return after;
}
