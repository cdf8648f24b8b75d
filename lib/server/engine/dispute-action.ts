import 'server-only';
import type { DisputeAmountStatus, DisputeStatus } from '@/lib/escrow/dispute-machine';
import { settlement } from '@/lib/escrow/ledger';
import type { Tx } from '../db/client';
import { runAsOneStatement } from '../db/one-statement';
import { updateById } from '../db/recordset';
import { disputes, milestones } from '../db/schema';
import type { EventType } from '../events/record-event';
import type { ClientRow } from '../db/schema';
import { disputeWithPartiesRecord, loadEvidence, loadProposals, type DisputeRow } from '../records/disputes';
import { findMilestone, loadMilestoneLogs, loadMilestonesWithEscrows, type TransactionGraph } from '../records/transaction-graph/queries';
import { writeStep, type ActionEffect, type LogActor } from './milestone-action';
import { autoPayoutOf } from '../payouts/payouts';
import { lockLedgerAccounts, transfersWrites } from './post-transfer';
import { settlementTerms } from '../records/transaction-graph/domain';

/** Extra dispute fields an action sets besides the status (escalation, resolution, cancellation). */
export type DisputeEffect = ActionEffect & { dispute?: Partial<typeof disputes.$inferInsert> };

/**
 * Writes a dispute step in one statement (writeStep): the dispute's new status and fields, the milestone
 * log line, the transaction's status and totals, and the event with the dispute as it now stands. Given
 * `last`, the step ends its transaction (transactionWithLastWrite); otherwise it is written before this returns.
 */
export async function finishDisputeStep(
  tx: Tx,
  a: {
    client: ClientRow;
    dispute: DisputeRow;
    graph: TransactionGraph;
    now: Date;
    actor: LogActor;
    automatic: boolean;
    baseUrl: string;
    event: EventType;
    status: DisputeStatus;
    amountStatus: DisputeAmountStatus;
    effect: DisputeEffect;
  },
  last?: (write: Promise<unknown>) => void,
) {
  const { id, milestoneId } = a.dispute;
  // Read together: the milestones as they now stand (a settlement may have just resolved this one) and
  // what the dispute's record shows besides.
  const [current, proposals, logs, evidence] = await Promise.all([
    loadMilestonesWithEscrows(tx, a.graph.transaction.id),
    loadProposals(tx, [id]),
    loadMilestoneLogs(tx, milestoneId),
    loadEvidence(tx, [id]),
  ]);
  // The refund deadline runs only while arbitration stays declined: a step out of it (a verdict, a
  // withdrawal, the refund itself) stops it.
  const refundClock = a.status === 'ARBITRATION_DECLINED' ? {} : { declinedRefundDueAt: null };
  const changes = { ...refundClock, ...a.effect.dispute, status: a.status, disputeAmountStatus: a.amountStatus, updatedAt: a.now };
  const dispute: DisputeRow = { ...a.dispute, ...changes };
  let record: ReturnType<typeof disputeWithPartiesRecord> | undefined;
  const { written } = writeStep(tx, {
    client: a.client,
    graph: { ...a.graph, milestones: current },
    milestoneId,
    now: a.now,
    totals: a.effect,
    log: { actor: a.actor, message: a.effect.log, automatic: a.automatic },
    rows: [updateById(disputes, id, changes)],
    event: {
      type: a.event,
      disputeId: id,
      data: (after, log) => {
        record = disputeWithPartiesRecord(dispute, proposals.get(id) ?? [], after, [...logs, log], evidence.get(id) ?? [], a.baseUrl);
        return { actor: a.actor, automatic: a.automatic, message: a.effect.log, dispute: record };
      },
    },
  });
  if (last) last(written);
  else await written;
  return record!;
}

/**
 * Every way a dispute ends moves the escrow the same way: `paidToSeller` to the seller less its fee
 * share, the fee to the platform, the rest to the buyer (docs/decisions.md §6). Cancelling is paying 0. The
 * transfer and the milestone's resolution are written now, in one statement, after its accounts are locked.
 */
export async function settleDisputedMilestone(
  tx: Tx,
  a: { client: ClientRow; graph: TransactionGraph; dispute: DisputeRow; paidToSeller: number; now: Date; why: string },
) {
  const entry = findMilestone(a.graph, a.dispute.milestoneId);
  const { transfer, breakdown } = settlement('dispute_settlement', {
    escrowId: entry.escrow.id,
    sellerWalletId: a.graph.seller.organisation.walletId,
    buyerWalletId: a.graph.buyer.organisation.walletId,
    feeAccountId: a.client.feeAccountId,
    paidToSeller: a.paidToSeller,
    terms: settlementTerms(entry),
  });
  const payout = await autoPayoutOf(tx, a.client, {
    sellerUserId: a.graph.seller.user.id,
    sellerWalletId: a.graph.seller.organisation.walletId,
    release: transfer,
    milestoneId: entry.milestone.id,
    now: a.now,
  });
  await lockLedgerAccounts(tx, [...transfer.postings, ...(payout?.transfer.transfer.postings ?? [])].map((p) => p.accountId));
  await runAsOneStatement(tx, 'settle_dispute', [
    ...transfersWrites([
      { clientId: a.client.id, transfer, milestoneId: entry.milestone.id, description: `${a.why} (${a.dispute.disputeCode})`, now: a.now },
      ...(payout ? [payout.transfer] : []),
    ]),
    ...(payout?.writes ?? []),
    updateById(milestones, entry.milestone.id, { status: 'DISPUTE_RESOLVED', updatedAt: a.now }),
  ]);
  return breakdown;
}
