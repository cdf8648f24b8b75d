import 'server-only';
import { eq } from 'drizzle-orm';
import { formatLagosDateTime } from '@/lib/escrow/business-days';
import { DISPUTE_OPENING_BUSINESS_DAYS } from '@/lib/escrow/deadlines';
import type { DisputeAmountStatus, DisputeStatus } from '@/lib/escrow/dispute-machine';
import { dueLapses, type Lapse, type TransactionClocks } from '@/lib/escrow/lapses';
import { maxSellerPayment } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import { holidays } from '../calendar';
import { announceLapses } from '../events/deadline-events';
import type { Tx } from '../db/client';
import { disputes, transactions, type ClientRow } from '../db/schema';
import { env } from '../env';
import { uuidv7 } from '../ids';
import {
  findMilestone,
  loadMilestonesAndDisputes,
  loadTransactionGraphsWithDisputes,
  loadTransactionGraph,
  readMilestoneWithLogs,
  type MilestonesAndDisputes,
  type TransactionRow,
} from '../records/transaction-graph/queries';
import { milestoneClockOf, settlementTerms, transactionClockOf } from '../records/transaction-graph/domain';
import { writeOpenedDispute } from './dispute-opening-writes';
import { finishDisputeStep, settleDisputedMilestone } from './dispute-action';
import {
  applyMilestoneAction,
  decideMilestoneStatus,
  milestoneActionStep,
  stepsInBulkStatement,
  type ActionContext,
  type MilestoneActionEffect,
  type Step,
} from './milestone-action';
import { lockLedgerAccounts } from './post-transfer';
import { startsAutoPayouts } from '../payouts/payouts';
import { refundBuyerOnReturn, releaseToSeller } from './milestone-effects';
import { declineUnansweredExtension } from './milestone-extension-writes';
import { writePartialAcceptanceAnswer } from './partial-outcome-writes';
import { settleLapsedRequest } from './transaction-ending-writes';

/** A transaction's own clock as its row holds it: a pending cancellation request and its deadline. */
export type TransactionClockRow = Pick<TransactionRow, 'cancellationRequest' | 'cancellationResponseDueAt'>;

/** What the lapse engine reads, from a transaction's milestones and disputes as loaded, and its own clock. */
function clocksOf(loaded: MilestonesAndDisputes, transaction: TransactionClockRow): TransactionClocks {
  return {
    transaction: transactionClockOf(transaction),
    milestones: loaded.milestones.map(({ milestone: m }) => ({ id: m.id, position: m.position, ...milestoneClockOf(m) })),
    disputes: loaded.disputes.map((d) => ({ ...d, status: d.status as DisputeStatus })),
  };
}

/** A dispute the service opens gets one id however often the engine asks for it while planning. */
function newDisputeIds(): (milestoneId: string) => string {
  const ids = new Map<string, string>();
  return (milestoneId) => {
    const id = ids.get(milestoneId) ?? uuidv7();
    ids.set(milestoneId, id);
    return id;
  };
}

/** The lapse engine's answer for a transaction loaded under its row lock: what to apply, in order. */
export function lapsesDue(loaded: MilestonesAndDisputes, transaction: TransactionClockRow, now: Date): Lapse[] {
  return dueLapses(clocksOf(loaded, transaction), now, { holidays: holidays(), disputeIdFor: newDisputeIds() });
}

/** Where file URLs in a lapse's event records point: the service's public address. */
const lapseBaseUrl = () => env().ESCROW_PUBLIC_URL ?? `http://localhost:${env().PORT}`;

/**
 * Applies the engine's lapses in order. The caller holds the transaction's row lock, so each lapse acts
 * exactly once however many runners race. Each is logged as automatic and emits the same event as the
 * manual operation it stands for.
 */
export async function applyLapses(tx: Tx, client: ClientRow, transactionId: string, lapses: readonly Lapse[], now: Date): Promise<void> {
  for (const lapse of lapses) {
    // deadline.lapsed goes right before the events of what the lapse does (docs/webhooks.md).
    await announceLapses(tx, client.id, [{ transactionId, lapse }], now);
    await applyLapse(tx, client, transactionId, lapse, now);
  }
}

/** Loads the transaction (its row lock held), asks the engine and applies its answer; returns how many lapses acted. */
export async function settleDueLapses(tx: Tx, client: ClientRow, transactionId: string, now: Date): Promise<number> {
  const [loaded, [clock]] = await Promise.all([
    loadMilestonesAndDisputes(tx, transactionId),
    tx
      .select({ cancellationRequest: transactions.cancellationRequest, cancellationResponseDueAt: transactions.cancellationResponseDueAt })
      .from(transactions)
      .where(eq(transactions.id, transactionId))
      .prepare('transaction_clock')
      .execute(),
  ]);
  if (!clock) return 0;
  const lapses = lapsesDue(loaded, clock, now);
  await applyLapses(tx, client, transactionId, lapses, now);
  return lapses.length;
}

/**
 * Lets requests waiting on this process's event loop in between pieces of a batch's work: a batch decodes
 * and builds the rows of hundreds of transactions, and requests queued behind all of it in one go.
 */
const pauseEvery10 = (index: number) => (index % 10 === 9 ? new Promise<void>((resolve) => setImmediate(resolve)) : Promise.resolve());

/** A lapse that takes a silent party's milestone action: what the party's own operation would have done. */
type OnBehalfLapse = Extract<Lapse, { kind: 'accept_delivery' | 'approve_return' }>;

const isOnBehalf = (lapse: Lapse): lapse is OnBehalfLapse => lapse.kind === 'accept_delivery' || lapse.kind === 'approve_return';

function actOnBehalf(lapse: OnBehalfLapse, ctx: ActionContext): Promise<MilestoneActionEffect> {
  return lapse.kind === 'accept_delivery'
    ? releaseToSeller(ctx, 'Inspection period ended without an answer from the buyer, so the delivery was accepted automatically')
    : refundBuyerOnReturn(ctx, 'The seller did not answer the return in time, so it was approved automatically');
}

/**
 * settleDueLapses for many transactions of one client, their row locks held: a transaction whose one due
 * lapse takes a party's milestone action (an inspection or a return left unanswered: most of a storm of
 * deadlines) is settled with the others in a few set-based writes (stepsInBulkStatement). The rest, and every
 * release that starts an automatic payout, are left to settleDueLapses, one transaction at a time: returned.
 */
export async function settleOnBehalfLapsesInBulk(tx: Tx, client: ClientRow, transactionIds: string[], now: Date): Promise<{ acted: number; left: string[] }> {
  const loaded = await loadTransactionGraphsWithDisputes(tx, client.id, transactionIds, pauseEvery10);
  const steps: Step[] = [];
  const announced: { transactionId: string; lapse: Lapse }[] = [];
  const left: string[] = [];
  for (const [i, { graph, disputes }] of loaded.entries()) {
    await pauseEvery10(i);
    const lapses = lapsesDue({ milestones: graph.milestones, disputes }, graph.transaction, now);
    const [lapse] = lapses;
    if (!lapse) continue;
    if (lapses.length > 1 || !isOnBehalf(lapse) || startsAutoPayouts(client)) {
      left.push(graph.transaction.id);
      continue;
    }
    const action = { client, graph, milestoneId: lapse.milestoneId, action: lapse.action, now };
    const to = decideMilestoneStatus(graph, lapse.milestoneId, lapse.action);
    const lockAccounts = () => Promise.reject(new Error('a lapse settled in bulk reads no balance'));
    const effect = await actOnBehalf(lapse, { tx, client, graph, entry: findMilestone(graph, lapse.milestoneId), now, to, lockAccounts });
    steps.push(milestoneActionStep(action, to, effect));
    announced.push({ transactionId: graph.transaction.id, lapse });
  }
  await announceLapses(tx, client.id, announced, now);
  // The write is built first: the batch holds its accounts, which other batches and requests share, only
  // while the write runs. Every account of the batch at once, in the order every writer takes them
  // (house accounts last).
  const write = await stepsInBulkStatement(tx, client, steps, pauseEvery10);
  await lockLedgerAccounts(tx, steps.flatMap((step) => step.transfer?.transfer.postings.map((p) => p.accountId) ?? []));
  await write.execute();
  return { acted: steps.length, left };
}

async function applyLapse(tx: Tx, client: ClientRow, transactionId: string, lapse: Lapse, now: Date): Promise<void> {
  switch (lapse.kind) {
    case 'accept_delivery':
    case 'approve_return': {
      const graph = (await readMilestoneWithLogs(tx, client.id, lapse.milestoneId))?.graph;
      if (!graph) throw new Error(`milestone ${lapse.milestoneId} vanished while settling deadlines`);
      await applyMilestoneAction(tx, {
        client,
        graph,
        balances: new Map(),
        milestoneId: lapse.milestoneId,
        action: lapse.action,
        now,
        apply: (ctx) => actOnBehalf(lapse, ctx),
      });
      return;
    }
    case 'accept_partial_acceptance': {
      const graph = (await readMilestoneWithLogs(tx, client.id, lapse.milestoneId))?.graph;
      if (!graph) throw new Error(`milestone ${lapse.milestoneId} vanished while settling deadlines`);
      await writePartialAcceptanceAnswer({ tx, client, graph, milestoneId: lapse.milestoneId, now }, { by: 'service', answer: 'accept' });
      return;
    }
    case 'decline_extension': {
      const graph = (await readMilestoneWithLogs(tx, client.id, lapse.milestoneId))?.graph;
      if (!graph) throw new Error(`milestone ${lapse.milestoneId} vanished while settling deadlines`);
      await declineUnansweredExtension(tx, client, graph, lapse.milestoneId, now, 'the buyer did not answer it in time');
      return;
    }
    case 'cancellation_lapsed': {
      const graph = await loadTransactionGraph(tx, client.id, transactionId);
      if (!graph) throw new Error(`transaction ${transactionId} vanished while settling deadlines`);
      await settleLapsedRequest(tx, client, graph, lapse.outcome, now);
      return;
    }
    case 'open_dispute': {
      const graph = await loadTransactionGraph(tx, client.id, transactionId);
      if (!graph) throw new Error(`transaction ${transactionId} vanished while settling deadlines`);
      const { written } = writeOpenedDispute(tx, {
        client,
        graph,
        milestoneId: lapse.milestoneId,
        openedBy: 'system',
        description: `Opened by the service: the seller rejected the buyer's return and neither party opened a dispute within ${DISPUTE_OPENING_BUSINESS_DAYS} business days.`,
        mediationEnd: lapse.mediationEndsAt,
        now,
        baseUrl: lapseBaseUrl(),
        id: lapse.disputeId,
      });
      await written;
      return;
    }
    default:
      return applyDisputeLapse(tx, client, transactionId, lapse, now);
  }
}

async function applyDisputeLapse(tx: Tx, client: ClientRow, transactionId: string, lapse: Extract<Lapse, { to: DisputeStatus }>, now: Date) {
  const [graph, [dispute]] = await Promise.all([
    loadTransactionGraph(tx, client.id, transactionId),
    tx.select().from(disputes).where(eq(disputes.id, lapse.disputeId)).prepare('dispute_by_id').execute(),
  ]);
  if (!graph || !dispute) throw new Error(`transaction ${transactionId} or dispute ${lapse.disputeId} vanished while settling deadlines`);
  const step = {
    client,
    dispute,
    graph,
    now,
    actor: 'system' as const,
    automatic: true,
    baseUrl: lapseBaseUrl(),
    status: lapse.to,
    amountStatus: dispute.disputeAmountStatus as DisputeAmountStatus,
  };
  switch (lapse.kind) {
    case 'escalate':
      await finishDisputeStep(tx, {
        ...step,
        event: 'dispute.escalated',
        effect: {
          log: `Intra-party mediation ended without agreement; evidence submission is open until ${formatLagosDateTime(lapse.evidenceEndsAt)}.`,
          dispute: { evidenceSubmissionEndDate: lapse.evidenceEndsAt, escalatedAt: now, escalatedBy: 'system' },
        },
      });
      return;
    case 'arbitration':
      await finishDisputeStep(tx, {
        ...step,
        event: 'dispute.escalated',
        effect: { log: 'Evidence submission closed with evidence from both parties; the dispute team will arbitrate.' },
      });
      return;
    case 'declined':
      await finishDisputeStep(tx, {
        ...step,
        event: 'dispute.arbitration_declined',
        effect: {
          log: `Evidence submission closed with no evidence from either party; the dispute team declines to arbitrate. The funds stay held until ${formatLagosDateTime(lapse.refundDueAt)}: unless the dispute team decides first, everything then goes back to the buyer.`,
          dispute: { declinedRefundDueAt: lapse.refundDueAt },
        },
      });
      return;
    case 'declined_refund': {
      const breakdown = await settleDisputedMilestone(tx, { client, graph, dispute, paidToSeller: 0, now, why: 'Declined arbitration left undecided' });
      await finishDisputeStep(tx, {
        ...step,
        event: 'dispute.resolved',
        effect: {
          log: `Arbitration was declined and the dispute team did not decide in time, so everything held went back to the buyer: ${formatNaira(breakdown.toBuyer)} refunded.`,
          refundedKobo: breakdown.toBuyer,
          dispute: { resolution: 'declined_refund', resolvedAt: now },
        },
      });
      return;
    }
    case 'forfeit': {
      const entry = findMilestone(graph, dispute.milestoneId);
      const paidToSeller = lapse.loser === 'seller' ? 0 : maxSellerPayment(settlementTerms(entry), graph.transaction.transactionAmountKobo);
      const breakdown = await settleDisputedMilestone(tx, { client, graph, dispute, paidToSeller, now, why: `Forfeit by the ${lapse.loser}` });
      await finishDisputeStep(tx, {
        ...step,
        event: 'dispute.resolved',
        effect: {
          log: `The ${lapse.loser} submitted no evidence in time and forfeits the dispute: ${formatNaira(breakdown.toSeller)} to the seller, ${formatNaira(breakdown.toBuyer)} to the buyer.`,
          disbursedKobo: breakdown.toSeller,
          refundedKobo: breakdown.toBuyer,
          dispute: { resolution: lapse.loser === 'seller' ? 'forfeit_seller' : 'forfeit_buyer', resolvedAt: now },
        },
      });
      return;
    }
  }
}
