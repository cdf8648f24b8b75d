import 'server-only';
import { randomBytes } from 'node:crypto';
import type { CreateDisputeBody } from '@/lib/contracts/disputes';
import { addBusinessDays, formatLagosDateTime } from '@/lib/escrow/business-days';
import { MEDIATION_BUSINESS_DAYS } from '@/lib/escrow/deadlines';
import { decideMilestoneAction, type MilestoneStatus } from '@/lib/escrow/milestone-machine';
import { holidays } from '../calendar';
import type { Db } from '../db/client';
import { transactionWithLastWrite } from '../db/transaction';
import { disputes } from '../db/schema';
import { invalidState } from '../app-error';
import type { ClientRow } from '../db/schema';
import { uuidv7 } from '../ids';
import { disputeRecord, maxDisputeAmountKobo, type DisputeRow } from '../records/disputes';
import { findMilestone } from '../records/transaction-graph';
import { writeStep } from './milestone-action';
import { assertActingParty } from './parties';
import { lockTransactionOfMilestone } from './transaction-lock';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function disputeCode(): string {
  const bytes = randomBytes(10);
  return `DSP_${Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')}`;
}

export async function createDispute(db: Db, client: ClientRow, body: CreateDisputeBody, now: Date, baseUrl: string) {
  return transactionWithLastWrite(db, async (tx, last) => {
    const graph = await lockTransactionOfMilestone(tx, client, body.milestone_id, now);
    const seller = await assertActingParty(tx, { clientId: client.id, role: 'seller', givenId: body.seller_id, expected: graph.seller.party, field: 'seller_id' });
    const buyer = await assertActingParty(tx, { clientId: client.id, role: 'buyer', givenId: body.buyer_id, expected: graph.buyer.party, field: 'buyer_id' });
    const entry = findMilestone(graph, body.milestone_id);
    const state = (m: typeof entry.milestone) => ({ id: m.id, status: m.status as MilestoneStatus, position: m.position });
    const decision = decideMilestoneAction('open_dispute', state(entry.milestone), graph.milestones.map((e) => state(e.milestone)));
    if (!decision.ok) throw invalidState(decision.message);

    const mediationEnd = addBusinessDays(now, MEDIATION_BUSINESS_DAYS, holidays());
    const dispute: DisputeRow = {
      id: uuidv7(),
      clientId: client.id,
      disputeCode: disputeCode(),
      description: body.description,
      buyerPartyId: buyer.id,
      sellerPartyId: seller.id,
      milestoneId: body.milestone_id,
      status: 'INTRA_PARTY_MEDIATION',
      disputeAmountStatus: 'PENDING',
      disputeAmountKobo: 0,
      isBuyerEvidenceSubmitted: false,
      isSellerEvidenceSubmitted: false,
      intraPartyMediationEndDate: mediationEnd,
      evidenceSubmissionEndDate: null,
      evidenceExtendedBy: [],
      counterOfferAmountKobo: null,
      openedBy: 'seller',
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
    const record = disputeRecord(dispute, [], maxDisputeAmountKobo(graph, body.milestone_id), [], baseUrl);
    const { written } = writeStep(tx, {
      client,
      graph,
      milestoneId: body.milestone_id,
      now,
      milestone: { status: decision.to },
      log: { actor: 'seller', message: `Seller opened dispute ${dispute.disputeCode}; intra-party mediation runs until ${formatLagosDateTime(mediationEnd)}.`, automatic: false },
      rows: [tx.insert(disputes).values(dispute)],
      event: { type: 'dispute.created', disputeId: dispute.id, data: () => ({ actor: 'seller', automatic: false, dispute: record }) },
    });
    last(written);
    return record;
  });
}
