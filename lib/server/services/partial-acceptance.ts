import 'server-only';
import type { DeclinePartialAcceptanceBody, ProposePartialAcceptanceBody } from '@/lib/contracts/milestones';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { writePartialAcceptanceAnswer, writePartialAcceptanceProposal } from '../engine/partial-outcome-writes';
import { runPartialOutcomeStep } from '../engine/run-partial-outcome-step';
import { sellerShareKobo } from '../engine/seller-share';

/** `POST /v1/milestones/{id}/partial-acceptance`: the buyer proposes to pay part of the delivery (docs/decisions.md §17). */
export async function proposePartialAcceptance(db: Db, client: ClientRow, milestoneId: string, body: ProposePartialAcceptanceBody, now: Date) {
  const releaseAmountKobo = sellerShareKobo(body.release_amount, 'release_amount');
  return runPartialOutcomeStep(db, {
    client,
    milestoneId,
    role: 'buyer',
    actingId: body.buyer_id,
    now,
    write: (frame) => writePartialAcceptanceProposal(frame, { releaseAmountKobo, reason: body.reason }),
  });
}

/** `POST /v1/milestones/{id}/partial-acceptance/accept|decline`: the seller answers the pending proposal. */
export async function answerPartialAcceptance(db: Db, client: ClientRow, milestoneId: string, answer: 'accept' | 'decline', body: DeclinePartialAcceptanceBody, now: Date) {
  return runPartialOutcomeStep(db, {
    client,
    milestoneId,
    role: 'seller',
    actingId: body.seller_id,
    now,
    write: (frame) => writePartialAcceptanceAnswer(frame, { by: 'seller', answer, declineReason: body.reason || null }),
  });
}
