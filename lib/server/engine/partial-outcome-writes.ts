import 'server-only';
import { eq } from 'drizzle-orm';
import { formatLagosDateTime } from '@/lib/escrow/business-days';
import type { DisputeAmountStatus } from '@/lib/escrow/dispute-machine';
import { heldPrincipal, partialAcceptanceSettlement, sellerRefund } from '@/lib/escrow/held-escrow';
import type { MilestoneStatus, PartyRole } from '@/lib/escrow/milestone-machine';
import { formatNaira, type Kobo } from '@/lib/escrow/money';
import { decidePartialAcceptanceAnswer, decideProposePartialAcceptance, decideSellerRefund, type Refusal } from '@/lib/escrow/partial-outcomes';
import { holidays } from '../calendar';
import type { Tx } from '../db/client';
import { disputes, type ClientRow } from '../db/schema';
import type { EventType } from '../events/record-event';
import { AppError } from '../app-error';
import { findMilestone, type TransactionGraph } from '../records/transaction-graph/queries';
import { partialAcceptanceJsonOf, partialOutcomeMilestoneOf, settlementTerms } from '../records/transaction-graph/domain';
import { finishDisputeStep } from './dispute-action';
import { writeMilestoneStep, type MilestoneActionEffect } from './milestone-action';
import { lockLedgerAccounts } from './post-transfer';

// The seller's refunds and the buyer's partial acceptance (docs/decisions.md §17, §16–§18): the writes a
// party's operation and the lapse that accepts an unanswered proposal (apply-lapses.ts) share.

/** A locked transaction a partial-outcome step writes to. Given `last`, the step ends its database transaction. */
export type PartialOutcomeFrame = {
  tx: Tx;
  client: ClientRow;
  graph: TransactionGraph;
  milestoneId: string;
  now: Date;
  last?: (write: Promise<unknown>) => void;
};

/** A refusal of the rules as the API's error; an amount out of range names its field. */
function refusal(r: Refusal, field: string): AppError {
  if (r.code === 'VALIDATION_ERROR') return new AppError(r.code, r.message, [{ field, message: r.message }]);
  return new AppError(r.code, r.message);
}

function write(f: PartialOutcomeFrame, a: { event: EventType; role?: PartyRole; to: MilestoneStatus; effect: MilestoneActionEffect }, last: PartialOutcomeFrame['last']) {
  return writeMilestoneStep(
    f.tx,
    { client: f.client, graph: f.graph, milestoneId: f.milestoneId, now: f.now, ...a, lockAccounts: (ids) => lockLedgerAccounts(f.tx, ids) },
    last,
  );
}

/**
 * `POST /v1/milestones/{id}/refund`: `amountKobo` of the price held goes back to the buyer, its fee share on
 * top. Everything held ends the milestone REFUNDED, and an open dispute over it ends as the seller's withdrawal.
 */
export async function writeSellerRefund(f: PartialOutcomeFrame, a: { amountKobo: Kobo; reason: string; baseUrl: string }): Promise<TransactionGraph> {
  const { graph } = f;
  const entry = findMilestone(graph, f.milestoneId);
  const decision = decideSellerRefund(partialOutcomeMilestoneOf(entry), 'seller', a.amountKobo, f.now);
  if (!decision.ok) throw refusal(decision, 'amount');
  const { transfer, breakdown } = sellerRefund({ escrowId: entry.escrow.id, buyerWalletId: graph.buyer.organisation.walletId, principal: a.amountKobo, terms: settlementTerms(entry) });
  const m = entry.milestone;
  const pa = decision.partialAcceptance;
  const effect: MilestoneActionEffect = {
    milestone: {
      amountRefundedKobo: m.amountRefundedKobo + breakdown.principal,
      ...decision.clock,
      ...(pa !== null && pa.status !== m.partialAcceptance?.status ? { partialAcceptance: partialAcceptanceJsonOf(pa) } : {}),
    },
    transfer: { transfer, description: `Seller refund on milestone ${m.position}` },
    log: `Seller refunded ${formatNaira(breakdown.principal)}${breakdown.feeShare > 0 ? ` (and the buyer's fee share of ${formatNaira(breakdown.feeShare)})` : ''} to the buyer: ${a.reason}.${
      decision.to === 'REFUNDED' ? ' Nothing is held any more: the milestone is refunded.' : ` ${formatNaira(breakdown.principalAfter)} is still held.`
    }${pa?.status === 'WITHDRAWN' && m.partialAcceptance?.status === 'PENDING' ? ' The pending partial acceptance no longer fits and is withdrawn; inspection restarts.' : ''}`,
    refundedKobo: breakdown.toBuyer,
  };
  if (!decision.closesDispute) return write(f, { event: 'milestone.refunded', role: 'seller', to: decision.to, effect }, f.last);
  // Two events, so two statements (record-event.ts): the dispute's withdrawal is the last write.
  const after = await write(f, { event: 'milestone.refunded', role: 'seller', to: decision.to, effect }, undefined);
  const [dispute] = await f.tx.select().from(disputes).where(eq(disputes.milestoneId, f.milestoneId));
  if (!dispute) throw new Error(`milestone ${f.milestoneId} is in dispute without a dispute`);
  await finishDisputeStep(
    f.tx,
    {
      client: f.client,
      dispute,
      graph: after,
      now: f.now,
      actor: 'seller',
      automatic: false,
      baseUrl: a.baseUrl,
      event: 'dispute.canceled',
      status: decision.closesDispute,
      amountStatus: dispute.disputeAmountStatus as DisputeAmountStatus,
      effect: {
        log: `The seller refunded everything held, which withdraws the dispute (${dispute.disputeCode}).`,
        dispute: { cancellationAgreementDetails: a.reason, canceledBy: 'seller', resolution: 'canceled', resolvedAt: f.now },
      },
    },
    f.last,
  );
  return after;
}

/** `POST /v1/milestones/{id}/partial-acceptance`: the buyer proposes to pay part; its answer deadline replaces inspection's. */
export async function writePartialAcceptanceProposal(f: PartialOutcomeFrame, a: { releaseAmountKobo: Kobo; reason: string }): Promise<TransactionGraph> {
  const entry = findMilestone(f.graph, f.milestoneId);
  const decision = decideProposePartialAcceptance(partialOutcomeMilestoneOf(entry), 'buyer', { releaseAmount: a.releaseAmountKobo, reason: a.reason }, f.now, holidays());
  if (!decision.ok) throw refusal(decision, 'release_amount');
  const p = decision.partialAcceptance;
  const dueAt = decision.clock.partialAcceptanceResponseDueAt!;
  return write(f, {
    event: 'milestone.partial_acceptance_proposed',
    role: 'buyer',
    to: 'UNDER_INSPECTION',
    effect: {
      milestone: { partialAcceptance: partialAcceptanceJsonOf(p), ...decision.clock },
      log: `Buyer proposed to accept part of the delivery: ${formatNaira(p.releaseAmount)} to the seller, ${formatNaira(p.refundAmount)} back to the buyer ("${p.reason}"). The seller has until ${formatLagosDateTime(dueAt)} to answer; unanswered, the proposal is accepted.`,
    },
  }, f.last);
}

/**
 * The seller's answer to the pending proposal, or the service's when it lapsed unanswered (`by` 'service':
 * accepted, logged as automatic). Accepted: the release amount to the seller less its fee share pro rata,
 * the rest to the buyer, the milestone COMPLETED. Declined: back to inspection, its deadline restarted.
 */
export async function writePartialAcceptanceAnswer(
  f: PartialOutcomeFrame,
  a: { by: 'seller' | 'service'; answer: 'accept' | 'decline'; declineReason?: string | null },
): Promise<TransactionGraph> {
  const { graph } = f;
  const entry = findMilestone(graph, f.milestoneId);
  const decision = decidePartialAcceptanceAnswer(partialOutcomeMilestoneOf(entry), a.by, a.answer, f.now, a.declineReason ?? null);
  if (!decision.ok) throw refusal(decision, 'seller_id');
  const role = a.by === 'service' ? undefined : a.by;
  const m = entry.milestone;
  if (decision.kind === 'declined') {
    return write(f, {
      event: 'milestone.partial_acceptance_declined',
      role,
      to: decision.to,
      effect: {
        milestone: { partialAcceptance: partialAcceptanceJsonOf(decision.partialAcceptance), ...decision.clock },
        log: `Seller declined the partial acceptance${a.declineReason ? ` ("${a.declineReason}")` : ''}. Inspection restarts: the buyer has until ${formatLagosDateTime(decision.clock.inspectionEndDate!)} to answer the delivery.`,
      },
    }, f.last);
  }
  const terms = settlementTerms(entry);
  const { transfer, breakdown } = partialAcceptanceSettlement({
    escrowId: entry.escrow.id,
    sellerWalletId: graph.seller.organisation.walletId,
    buyerWalletId: graph.buyer.organisation.walletId,
    feeAccountId: f.client.feeAccountId,
    releaseAmount: decision.releaseAmount,
    terms,
  });
  const refundedPrincipal = heldPrincipal(terms) - decision.releaseAmount;
  const how = a.by === 'service' ? 'The seller did not answer the partial acceptance in time, so it was accepted automatically' : 'Seller accepted the partial acceptance';
  return write(f, {
    event: 'milestone.partial_acceptance_accepted',
    role,
    to: decision.to,
    effect: {
      milestone: {
        isCompleted: true,
        amountReleasedKobo: decision.releaseAmount,
        amountRefundedKobo: m.amountRefundedKobo + refundedPrincipal,
        partialAcceptance: partialAcceptanceJsonOf(decision.partialAcceptance),
        ...decision.clock,
      },
      transfer: { transfer, description: `Partial acceptance of milestone ${m.position}` },
      log: `${how}; ${formatNaira(breakdown.toSeller)} released to the seller (fee ${formatNaira(breakdown.fee)}), ${formatNaira(breakdown.toBuyer)} refunded to the buyer.`,
      disbursedKobo: breakdown.toSeller,
      refundedKobo: breakdown.toBuyer,
    },
  }, f.last);
}
