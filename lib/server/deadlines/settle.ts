import 'server-only';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { addBusinessDays, formatLagosDateTime } from '@/lib/escrow/business-days';
import { EVIDENCE_BUSINESS_DAYS } from '@/lib/escrow/deadlines';
import { lapseOutcome, type DisputeAmountStatus, type DisputeStatus } from '@/lib/escrow/dispute-machine';
import { maxSellerPayment } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import { holidays } from '../calendar';
import type { Tx } from '../db/client';
import { disputes, milestones } from '../db/schema';
import type { ClientRow } from '../db/schema';
import { loadTransactionGraph, findMilestone } from '../records/transaction-graph';
import { releaseToSeller } from '../services/approve-delivery';
import { refundBuyerOnReturn } from '../services/approve-return';
import { finishDisputeStep, settleDisputedMilestone } from '../services/dispute-action';
import { runMilestoneAction } from '../services/milestone-action';
import { settlementTerms } from '../services/settlement-terms';
import { env } from '../env';
import { dueDeadlineCondition } from './due';
import { queryRows } from '../db/rows';

/** A lapse may lead to another already due (a clock moved days ahead): settle until nothing is due. */
const MAX_STEPS = 20;

/**
 * Acts on every deadline of one transaction that has passed by `now` (decisions §5, §6): inspection
 * lapsed → delivery accepted; return unanswered → return approved; mediation lapsed → evidence
 * submission; evidence window closed → forfeit, arbitration or arbitration declined. The caller holds
 * the transaction's row lock, so each lapse acts exactly once however many runners race. Each step is
 * logged as automatic and emits the same event as the manual operation.
 */
export async function settleDueDeadlines(tx: Tx, client: ClientRow, transactionId: string, now: Date, known: { due?: boolean } = {}): Promise<number> {
  // Every locked write asks; almost always nothing is due, and one query (or the caller, who has read
  // the milestones under the lock: loadMilestonesAndDueOfMilestone) says so.
  if (!(known.due ?? (await hasDueDeadline(tx, transactionId, now)))) return 0;
  let acted = 0;
  for (let step = 0; step < MAX_STEPS; step++) {
    if (!(await settleOne(tx, client, transactionId, now))) return acted;
    acted++;
  }
  return acted;
}

/** The conditions settleOne acts on, all at once. */
async function hasDueDeadline(tx: Tx, transactionId: string, now: Date): Promise<boolean> {
  const [row] = await queryRows<{ due: boolean }>(tx, sql`select ${dueDeadlineCondition(sql`${transactionId}`, sql`${now.toISOString()}::timestamptz`)} as due`);
  return row?.due === true;
}

async function settleOne(tx: Tx, client: ClientRow, transactionId: string, now: Date): Promise<boolean> {
  const [lapsedInspection] = await tx
    .select({ id: milestones.id })
    .from(milestones)
    .where(and(eq(milestones.transactionId, transactionId), eq(milestones.status, 'UNDER_INSPECTION'), lte(milestones.inspectionEndDate, now)))
    .limit(1);
  if (lapsedInspection) {
    await runMilestoneAction(tx, {
      client,
      milestoneId: lapsedInspection.id,
      action: 'approve',
      now,
      apply: (ctx) => releaseToSeller(ctx, 'Inspection period ended without an answer from the buyer, so the delivery was accepted automatically'),
    });
    return true;
  }
  const [unansweredReturn] = await tx
    .select({ id: milestones.id })
    .from(milestones)
    .where(
      and(eq(milestones.transactionId, transactionId), eq(milestones.status, 'DELIVERY_RETURNED_AWAITING_APPROVAL'), lte(milestones.returnDeadlineDate, now)),
    )
    .limit(1);
  if (unansweredReturn) {
    await runMilestoneAction(tx, {
      client,
      milestoneId: unansweredReturn.id,
      action: 'approve_return',
      now,
      apply: (ctx) => refundBuyerOnReturn(ctx, 'The seller did not answer the return in time, so it was approved automatically'),
    });
    return true;
  }
  const milestoneIds = (await tx.select({ id: milestones.id }).from(milestones).where(eq(milestones.transactionId, transactionId))).map((m) => m.id);
  const open = await tx
    .select()
    .from(disputes)
    .where(and(inArray(disputes.milestoneId, milestoneIds), inArray(disputes.status, ['INTRA_PARTY_MEDIATION', 'EVIDENCE_SUBMISSION'])));
  for (const dispute of open) {
    const due = dispute.status === 'INTRA_PARTY_MEDIATION' ? dispute.intraPartyMediationEndDate : dispute.evidenceSubmissionEndDate;
    if (!due || due > now) continue;
    await applyDisputeLapse(tx, client, transactionId, dispute, due, now);
    return true;
  }
  return false;
}

async function applyDisputeLapse(
  tx: Tx,
  client: ClientRow,
  transactionId: string,
  dispute: typeof disputes.$inferSelect,
  dueAt: Date,
  now: Date,
) {
  const graph = await loadTransactionGraph(tx, client.id, transactionId);
  if (!graph) throw new Error(`transaction ${transactionId} vanished while settling deadlines`);
  const outcome = lapseOutcome({
    status: dispute.status as DisputeStatus,
    buyerEvidence: dispute.isBuyerEvidenceSubmitted,
    sellerEvidence: dispute.isSellerEvidenceSubmitted,
  });
  if (!outcome) return;
  const amountStatus = dispute.disputeAmountStatus as DisputeAmountStatus;
  const step = { client, dispute, graph, now, actor: 'system' as const, automatic: true, baseUrl: env().ESCROW_PUBLIC_URL ?? `http://localhost:${env().PORT}`, amountStatus };
  switch (outcome.kind) {
    case 'escalate': {
      // Counted from when mediation ended, not from when the lapse was noticed.
      const evidenceEnd = addBusinessDays(dueAt, EVIDENCE_BUSINESS_DAYS, holidays());
      await finishDisputeStep(tx, {
        ...step,
        event: 'dispute.escalated',
        status: 'EVIDENCE_SUBMISSION',
        effect: {
          log: `Intra-party mediation ended without agreement; evidence submission is open until ${formatLagosDateTime(evidenceEnd)}.`,
          dispute: { evidenceSubmissionEndDate: evidenceEnd, escalatedAt: now, escalatedBy: 'system' },
        },
      });
      return;
    }
    case 'arbitration':
      await finishDisputeStep(tx, {
        ...step,
        event: 'dispute.escalated',
        status: 'ARBITRATION',
        effect: { log: 'Evidence submission closed with evidence from both parties; the dispute team will arbitrate.' },
      });
      return;
    case 'declined':
      await finishDisputeStep(tx, {
        ...step,
        event: 'dispute.arbitration_declined',
        status: 'ARBITRATION_DECLINED',
        effect: { log: 'Evidence submission closed with no evidence from either party; the dispute team declines to arbitrate and the funds stay held.' },
      });
      return;
    case 'forfeit': {
      const entry = findMilestone(graph, dispute.milestoneId);
      const paidToSeller = outcome.loser === 'seller' ? 0 : maxSellerPayment(settlementTerms(entry), graph.transaction.transactionAmountKobo);
      const breakdown = await settleDisputedMilestone(tx, { client, graph, dispute, paidToSeller, now, why: `Forfeit by the ${outcome.loser}` });
      await finishDisputeStep(tx, {
        ...step,
        event: 'dispute.resolved',
        status: 'RESOLVED',
        effect: {
          log: `The ${outcome.loser} submitted no evidence in time and forfeits the dispute: ${formatNaira(breakdown.toSeller)} to the seller, ${formatNaira(breakdown.toBuyer)} to the buyer.`,
          disbursedKobo: breakdown.toSeller,
          refundedKobo: breakdown.toBuyer,
          dispute: { resolution: outcome.loser === 'seller' ? 'forfeit_seller' : 'forfeit_buyer', resolvedAt: now },
        },
      });
      return;
    }
  }
}
