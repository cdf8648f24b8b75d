import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import { actingPartyOf, pagination } from '@/lib/contracts/common';
import type { ExtendEvidenceBody, SubmitEvidenceBody } from '@/lib/contracts/disputes';
import { addBusinessDays, formatLagosDateTime } from '@/lib/escrow/business-days';
import { EVIDENCE_BUSINESS_DAYS } from '@/lib/escrow/deadlines';
import { AWAITING_VERDICT, takesVerdict, type DisputeStatus } from '@/lib/escrow/dispute-machine';
import { decideEvidenceExtension } from '@/lib/escrow/extensions';
import { formatNaira, parseNaira } from '@/lib/escrow/money';
import { holidays } from '../calendar';
import type { Db } from '../db/client';
import { checkPageRequest, requireCursorRow } from '../db/paged-list';
import { clients, disputeEvidence, disputes } from '../db/schema';
import { AppError, invalidState, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { uuidv7 } from '../ids';
import { disputePage, maxDisputeAmountKobo } from '../records/disputes';
import { finishDisputeStep, settleDisputedMilestone } from '../engine/dispute-action';
import { loadDisputeWithParties } from './disputes';
import { assertProofs, storedFileId } from './proofs';
import { runDisputeAction } from '../engine/run-dispute-action';
import { lockTransactionOfMilestone } from '../engine/transaction-lock';

type Actor = { role: 'buyer' | 'seller'; id: string };

/** Either party ends mediation early; evidence submission runs 3 business days from now (docs/decisions.md §6). */
export async function escalateDispute(db: Db, client: ClientRow, disputeId: string, actor: Actor, now: Date, baseUrl: string) {
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'escalate',
    actor,
    now,
    baseUrl,
    apply: async ({ role }) => {
      const evidenceEnd = addBusinessDays(now, EVIDENCE_BUSINESS_DAYS, holidays());
      return {
        log: `The ${role} escalated the dispute; evidence submission is open until ${formatLagosDateTime(evidenceEnd)}.`,
        dispute: { evidenceSubmissionEndDate: evidenceEnd, escalatedAt: now, escalatedBy: role },
      };
    },
  });
}

/** Either party, once each, pushes the evidence window's end 2 business days later (docs/decisions.md §13). */
export async function extendEvidenceWindow(db: Db, client: ClientRow, disputeId: string, body: ExtendEvidenceBody, now: Date, baseUrl: string) {
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'extend_evidence',
    actor: actingPartyOf(body),
    now,
    baseUrl,
    apply: async ({ dispute, role }) => {
      const window = { status: dispute.status as DisputeStatus, evidenceSubmissionEndDate: dispute.evidenceSubmissionEndDate, extendedBy: dispute.evidenceExtendedBy };
      const decision = decideEvidenceExtension(window, role, holidays());
      if (!decision.ok) throw new AppError(decision.code, decision.message);
      return {
        log: `The ${role} extended the evidence window (${body.reason}); evidence submission is now open until ${formatLagosDateTime(decision.evidenceSubmissionEndDate)}.`,
        dispute: { evidenceSubmissionEndDate: decision.evidenceSubmissionEndDate, evidenceExtendedBy: decision.extendedBy },
      };
    },
  });
}

/** Text plus stored files (each kept with its sha256); the party's flag records that it spoke. */
export async function submitEvidence(db: Db, client: ClientRow, disputeId: string, body: SubmitEvidenceBody, now: Date, baseUrl: string) {
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'submit_evidence',
    actor: actingPartyOf(body),
    now,
    baseUrl,
    apply: async ({ tx, dispute, role }) => {
      const fileIds = body.files.map((url) => storedFileId(url));
      if (fileIds.some((id) => !id)) {
        throw new AppError('VALIDATION_ERROR', 'files: evidence files must be uploaded with POST /v1/files first, so each is kept with its hash.', [
          { field: 'files', message: 'must be /v1/files URLs of this service' },
        ]);
      }
      await assertProofs(tx, { clientId: client.id, field: 'files', urls: body.files, baseUrl });
      await tx.insert(disputeEvidence).values({ id: uuidv7(), disputeId: dispute.id, party: role, text: body.text, fileIds: fileIds as string[], createdAt: now });
      const count = body.files.length;
      return {
        log: `The ${role} submitted evidence${count ? ` with ${count} file${count === 1 ? '' : 's'}` : ''}.`,
        dispute: role === 'buyer' ? { isBuyerEvidenceSubmitted: true } : { isSellerEvidenceSubmitted: true },
      };
    },
  });
}

/** The seller withdraws: everything held goes back to the buyer (docs/decisions.md §6). */
export async function cancelDispute(db: Db, client: ClientRow, disputeId: string, body: { seller_id: string; cancellation_agreement_details: string }, now: Date, baseUrl: string) {
  return runDisputeAction(db, {
    client,
    disputeId,
    action: 'cancel',
    actor: { role: 'seller', id: body.seller_id },
    now,
    baseUrl,
    apply: async ({ tx, dispute, graph }) => {
      const breakdown = await settleDisputedMilestone(tx, { client, graph, dispute, paidToSeller: 0, now, why: 'Dispute withdrawn by the seller' });
      return {
        log: `The seller withdrew the dispute ("${body.cancellation_agreement_details}"); ${formatNaira(breakdown.toBuyer)} refunded to the buyer.`,
        refundedKobo: breakdown.toBuyer,
        dispute: { cancellationAgreementDetails: body.cancellation_agreement_details, canceledBy: 'seller', resolution: 'canceled', resolvedAt: now },
      };
    },
  });
}

/** The dispute team's final word: the seller's share of the escrow, the rest to the buyer. */
export async function decideVerdict(db: Db, disputeId: string, body: { seller_amount: number; reason: string }, baseUrl: string) {
  const parsed = parseNaira(body.seller_amount);
  if (!parsed.ok) throw new AppError('VALIDATION_ERROR', `seller_amount ${parsed.reason}`, [{ field: 'seller_amount', message: parsed.reason }]);
  const [row] = await db.select({ clientId: disputes.clientId, milestoneId: disputes.milestoneId }).from(disputes).where(eq(disputes.id, disputeId));
  if (!row) throw notFound('Dispute', disputeId);
  const [client] = await db.select().from(clients).where(eq(clients.id, row.clientId));
  if (!client) throw notFound('Dispute', disputeId);
  const now = new Date(Date.now() + client.clockOffsetMs);
  return db.transaction(async (tx) => {
    const graph = await lockTransactionOfMilestone(tx, client, row.milestoneId, now);
    const [dispute] = await tx.select().from(disputes).where(eq(disputes.id, disputeId));
    if (!dispute) throw notFound('Dispute', disputeId);
    if (!takesVerdict(dispute.status as DisputeStatus)) {
      throw invalidState(`Only a dispute in arbitration, or whose arbitration was declined, takes a verdict; this one is ${dispute.status}.`);
    }
    const max = maxDisputeAmountKobo(graph, dispute.milestoneId);
    if (parsed.kobo > max) {
      throw new AppError('DISPUTE_AMOUNT_OUT_OF_RANGE', `seller_amount must be between ${formatNaira(0)} and ${formatNaira(max)}.`, [
        { field: 'seller_amount', message: `must be between 0 and ${max / 100}` },
      ]);
    }
    const breakdown = await settleDisputedMilestone(tx, { client, graph, dispute, paidToSeller: parsed.kobo, now, why: 'Verdict of the dispute team' });
    return finishDisputeStep(tx, {
      client,
      dispute,
      graph,
      now,
      actor: 'dispute_team',
      automatic: false,
      baseUrl,
      event: 'dispute.resolved',
      status: 'RESOLVED',
      amountStatus: dispute.disputeAmountStatus as never,
      effect: {
        log: `The dispute team decided: ${formatNaira(breakdown.toSeller)} to the seller (fee ${formatNaira(breakdown.fee)}), ${formatNaira(breakdown.toBuyer)} to the buyer. Reason: ${body.reason}`,
        disbursedKobo: breakdown.toSeller,
        refundedKobo: breakdown.toBuyer,
        dispute: { resolution: 'verdict', verdictSellerAmountKobo: parsed.kobo, verdictReason: body.reason, resolvedAt: now },
      },
    });
  });
}

/** The dispute team's queue across every client, oldest first. */
export async function operatorDisputes(
  db: Db,
  q: { status?: DisputeStatus; awaiting_verdict?: 'true' | 'false'; client_id?: string; page: number; limit: number; after?: string; sort: 'ASC' | 'DESC' },
  baseUrl: string,
) {
  const where = and(
    q.status ? eq(disputes.status, q.status) : undefined,
    q.awaiting_verdict === 'true' ? inArray(disputes.status, AWAITING_VERDICT) : undefined,
    q.client_id ? eq(disputes.clientId, q.client_id) : undefined,
  );
  checkPageRequest(q);
  if (q.after !== undefined) await requireCursorRow(db, disputes, undefined, q.after, 'Dispute');
  const { rows, total, nextAfter } = await disputePage(db, { where, page: q.page, limit: q.limit, after: q.after, newestFirst: q.sort === 'DESC', baseUrl });
  return {
    disputes: rows.map((r) => ({ ...r.record, client_id: r.clientId, client_name: r.clientName })),
    pagination: pagination(q.page, q.limit, total, nextAfter, q.after !== undefined),
  };
}

export async function operatorDispute(db: Db, disputeId: string, baseUrl: string) {
  const [row] = await db.select({ clientId: disputes.clientId }).from(disputes).where(eq(disputes.id, disputeId));
  if (!row) throw notFound('Dispute', disputeId);
  return loadDisputeWithParties(db, row.clientId, disputeId, baseUrl);
}

