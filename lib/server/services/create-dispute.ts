import 'server-only';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { CreateDisputeBody } from '@/lib/contracts/disputes';
import { addBusinessDays, formatLagosDateTime } from '@/lib/escrow/business-days';
import { MEDIATION_BUSINESS_DAYS } from '@/lib/escrow/deadlines';
import { decideMilestoneAction, type MilestoneStatus } from '@/lib/escrow/milestone-machine';
import { holidays } from '../calendar';
import type { Db } from '../db/client';
import { disputes, milestones } from '../db/schema';
import { recordEvent } from '../events/record-event';
import { invalidState } from '../app-error';
import type { ClientRow } from '../db/schema';
import { uuidv7 } from '../ids';
import { disputeRecord, maxDisputeAmountKobo } from '../records/disputes';
import { findMilestone } from '../records/transaction-graph';
import { refreshTransaction, writeMilestoneLog } from './milestone-action';
import { assertActingParty } from './parties';
import { lockTransactionOfMilestone } from './transaction-lock';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function disputeCode(): string {
  const bytes = randomBytes(10);
  return `DSP_${Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')}`;
}

export async function createDispute(db: Db, client: ClientRow, body: CreateDisputeBody, now: Date, baseUrl: string) {
  return db.transaction(async (tx) => {
    const graph = await lockTransactionOfMilestone(tx, client, body.milestone_id, now);
    const seller = await assertActingParty(tx, { clientId: client.id, role: 'seller', givenId: body.seller_id, expected: graph.seller.party, field: 'seller_id' });
    const buyer = await assertActingParty(tx, { clientId: client.id, role: 'buyer', givenId: body.buyer_id, expected: graph.buyer.party, field: 'buyer_id' });
    const entry = findMilestone(graph, body.milestone_id);
    const state = (m: typeof entry.milestone) => ({ id: m.id, status: m.status as MilestoneStatus, position: m.position });
    const decision = decideMilestoneAction('open_dispute', state(entry.milestone), graph.milestones.map((e) => state(e.milestone)));
    if (!decision.ok) throw invalidState(decision.message);

    const mediationEnd = addBusinessDays(now, MEDIATION_BUSINESS_DAYS, holidays());
    const [dispute] = await tx
      .insert(disputes)
      .values({
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
        intraPartyMediationEndDate: mediationEnd,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!dispute) throw new Error('dispute insert returned nothing');
    await tx.update(milestones).set({ status: decision.to, updatedAt: now }).where(eq(milestones.id, body.milestone_id));
    await writeMilestoneLog(tx, {
      milestoneId: body.milestone_id,
      actor: 'seller',
      message: `Seller opened dispute ${dispute.disputeCode}; intra-party mediation runs until ${formatLagosDateTime(mediationEnd)}.`,
      now,
    });
    await refreshTransaction(tx, { transactionId: graph.transaction.id, now });
    const record = disputeRecord(dispute, [], maxDisputeAmountKobo(graph, body.milestone_id), [], baseUrl);
    await recordEvent(tx, {
      clientId: client.id,
      type: 'dispute.created',
      transactionId: graph.transaction.id,
      milestoneId: body.milestone_id,
      disputeId: dispute.id,
      data: { actor: 'seller', automatic: false, dispute: record },
      now,
    });
    return record;
  });
}
