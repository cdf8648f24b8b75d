import 'server-only';
import { randomBytes } from 'node:crypto';
import type { DisputeRecord } from '@/lib/contracts/records';
import { formatLagosDateTime } from '@/lib/escrow/business-days';
import { decideMilestoneAction, type MilestoneStatus } from '@/lib/escrow/milestone-machine';
import type { Tx } from '../db/client';
import { disputes } from '../db/schema';
import { invalidState } from '../app-error';
import type { ClientRow } from '../db/schema';
import { uuidv7 } from '../ids';
import { disputeRecord, maxDisputeAmountKobo, type DisputeRow } from '../records/disputes';
import { findMilestone, type TransactionGraph } from '../records/transaction-graph/queries';
import { partyUserIdsOf } from '../records/transaction-graph/present';
import { writeStep } from './milestone-action';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function disputeCode(): string {
  const bytes = randomBytes(10);
  return `DSP_${Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')}`;
}

/** Who opens a dispute: a party by request, or the service when nobody did in time (issue #25). */
export type DisputeOpener = 'buyer' | 'seller' | 'system';

/**
 * The dispute over the milestone's rejected return, written as one step (writeStep): its row, the
 * milestone IN_DISPUTE with its dispute-opening deadline stopped, the log line and dispute.created. The
 * transaction's row lock is held. A party's request and the lapsed deadline both open disputes through
 * here, so the two cannot differ in what a dispute starts with.
 */
export function writeOpenedDispute(
  tx: Tx,
  a: {
    client: ClientRow;
    graph: TransactionGraph;
    milestoneId: string;
    openedBy: DisputeOpener;
    description: string;
    mediationEnd: Date;
    now: Date;
    baseUrl: string;
    /** The id the lapse engine planned with, when the service opens it. */
    id?: string;
  },
): { record: DisputeRecord; written: Promise<void> } {
  const { client, graph, milestoneId, now } = a;
  const entry = findMilestone(graph, milestoneId);
  const state = (m: typeof entry.milestone) => ({ id: m.id, status: m.status as MilestoneStatus, position: m.position });
  const decision = decideMilestoneAction('open_dispute', state(entry.milestone), graph.milestones.map((e) => state(e.milestone)));
  if (!decision.ok) throw invalidState(decision.message);

  const dispute: DisputeRow = {
    id: a.id ?? uuidv7(),
    clientId: client.id,
    disputeCode: disputeCode(),
    description: a.description,
    buyerPartyId: graph.buyer.party.id,
    sellerPartyId: graph.seller.party.id,
    milestoneId,
    status: 'INTRA_PARTY_MEDIATION',
    disputeAmountStatus: 'PENDING',
    disputeAmountKobo: 0,
    isBuyerEvidenceSubmitted: false,
    isSellerEvidenceSubmitted: false,
    intraPartyMediationEndDate: a.mediationEnd,
    evidenceSubmissionEndDate: null,
    evidenceExtendedBy: [],
    counterOfferAmountKobo: null,
    openedBy: a.openedBy,
    declinedRefundDueAt: null,
    cancellationAgreementDetails: null,
    canceledBy: null,
    escalatedAt: null,
    escalatedBy: null,
    resolution: null,
    verdictSellerAmountKobo: null,
    verdictReason: null,
    resolvedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const record = disputeRecord(dispute, partyUserIdsOf(graph), [], maxDisputeAmountKobo(graph, milestoneId), [], a.baseUrl);
  const mediation = `intra-party mediation runs until ${formatLagosDateTime(a.mediationEnd)}.`;
  const automatic = a.openedBy === 'system';
  const message = automatic
    ? `Neither party opened a dispute over the rejected return in time, so the service opened dispute ${dispute.disputeCode}; ${mediation}`
    : `${a.openedBy === 'buyer' ? 'Buyer' : 'Seller'} opened dispute ${dispute.disputeCode}; ${mediation}`;
  const { written } = writeStep(tx, {
    client,
    graph,
    milestoneId,
    now,
    milestone: { status: decision.to, disputeOpeningDueAt: null },
    log: { actor: a.openedBy, message, automatic },
    rows: [tx.insert(disputes).values(dispute)],
    event: { type: 'dispute.created', disputeId: dispute.id, data: () => ({ actor: a.openedBy, automatic, dispute: record }) },
  });
  return { record, written };
}
