import 'server-only';
import type { DeclineExtensionBody, RequestExtensionBody } from '@/lib/contracts/milestones';
import { addBusinessDays, formatLagosDateTime } from '@/lib/escrow/business-days';
import { EXTENSION_RESPONSE_BUSINESS_DAYS } from '@/lib/escrow/deadlines';
import { decideExtensionRequest } from '@/lib/escrow/extensions';
import type { PartyRole } from '@/lib/escrow/milestone-machine';
import { holidays } from '../calendar';
import type { Db } from '../db/client';
import { transactionWithLastWrite } from '../db/transaction';
import type { ClientRow } from '../db/schema';
import { AppError } from '../app-error';
import { findMilestone, type TransactionGraph } from '../records/transaction-graph/queries';
import { answerPending, extensionMilestoneOf, writeExtensionChange, type ExtensionChange } from '../engine/milestone-extension-writes';
import { assertActingParty } from '../engine/parties';
import { lockTransactionOfMilestone } from '../engine/transaction-lock';

/**
 * The frame of a party's step on a milestone's due date, in one database transaction: lock the transaction
 * (settling lapsed deadlines) → unknown id (404) → wrong party (403) → the rules (400, 409) → the write.
 */
async function runExtensionStep(
  db: Db,
  a: { client: ClientRow; milestoneId: string; role: PartyRole; actingId: string; now: Date; decide: (graph: TransactionGraph) => ExtensionChange },
): Promise<TransactionGraph> {
  return transactionWithLastWrite(db, async (tx, last) => {
    const graph = await lockTransactionOfMilestone(tx, a.client, a.milestoneId, a.now);
    await assertActingParty(tx, { clientId: a.client.id, role: a.role, givenId: a.actingId, expected: graph[a.role].party, field: `${a.role}_id` });
    const { graph: after, written } = writeExtensionChange(tx, a.client, graph, a.milestoneId, a.decide(graph), a.now);
    last(written);
    return after;
  });
}

/** `POST /v1/milestones/{id}/extensions`: the seller asks, before delivery, for a later due date. */
export async function requestExtension(db: Db, client: ClientRow, milestoneId: string, body: RequestExtensionBody, now: Date) {
  return runExtensionStep(db, {
    client,
    milestoneId,
    role: 'seller',
    actingId: body.seller_id,
    now,
    decide: (graph) => {
      const m = findMilestone(graph, milestoneId).milestone;
      const dueDate = new Date(body.due_date);
      const decision = decideExtensionRequest(extensionMilestoneOf(m), { dueDate, reason: body.reason }, now);
      if (!decision.ok) {
        if (decision.code === 'VALIDATION_ERROR') throw new AppError(decision.code, `due_date: ${decision.message}`, [{ field: 'due_date', message: decision.message }]);
        throw new AppError(decision.code, decision.message);
      }
      const responseDueAt = addBusinessDays(now, EXTENSION_RESPONSE_BUSINESS_DAYS, holidays());
      return {
        extensions: decision.extensions,
        responseDueAt,
        log: {
          actor: 'seller',
          automatic: false,
          message: `Seller asked to move the due date from ${formatLagosDateTime(m.dueDate)} to ${formatLagosDateTime(dueDate)}: ${body.reason}. The buyer has until ${formatLagosDateTime(responseDueAt)} to answer; unanswered, the request is declined.`,
        },
        event: 'milestone.extension_requested',
      };
    },
  });
}

/** `PATCH /v1/milestones/{id}/extensions/approve|decline`: the buyer answers the pending request. */
export async function answerExtension(db: Db, client: ClientRow, milestoneId: string, how: 'approve' | 'decline', body: DeclineExtensionBody, now: Date) {
  return runExtensionStep(db, {
    client,
    milestoneId,
    role: 'buyer',
    actingId: body.buyer_id,
    now,
    decide: (graph) => {
      const m = findMilestone(graph, milestoneId).milestone;
      const decision = answerPending(m, how, now);
      const message =
        how === 'approve'
          ? `Buyer approved the extension: the milestone is now due ${formatLagosDateTime(decision.dueDate)}.`
          : `Buyer declined the extension${body.reason ? `: ${body.reason}` : ''}. The milestone stays due ${formatLagosDateTime(m.dueDate)}.`;
      return {
        extensions: decision.extensions,
        dueDate: decision.dueDate,
        currentExtensionIndex: decision.currentExtensionIndex,
        responseDueAt: null,
        log: { actor: 'buyer', automatic: false, message },
        event: how === 'approve' ? 'milestone.extension_approved' : 'milestone.extension_declined',
      };
    },
  });
}
