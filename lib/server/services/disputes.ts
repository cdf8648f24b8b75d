import 'server-only';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { pagination } from '@/lib/contracts/common';
import type { ListDisputesQuery } from '@/lib/contracts/disputes';
import { maxSellerPayment } from '@/lib/escrow/ledger';
import type { CommissionPayer } from '@/lib/escrow/fees';
import type { Db } from '../db/client';
import { disputes, ledgerAccounts, milestoneEscrows, milestones, transactions } from '../db/schema';
import type { ClientRow } from '../http/auth';
import { disputeRecord, loadEvidence, loadProposals } from '../records/disputes';
import { loadDisputeWithParties } from './dispute-action';

export async function getDispute(db: Db, client: ClientRow, disputeId: string, baseUrl: string) {
  return loadDisputeWithParties(db, client.id, disputeId, baseUrl);
}

export async function listDisputes(db: Db, client: ClientRow, q: ListDisputesQuery, baseUrl: string) {
  const where = and(
    eq(disputes.clientId, client.id),
    q.milestone_id ? eq(disputes.milestoneId, q.milestone_id) : undefined,
    q.status ? eq(disputes.status, q.status) : undefined,
  );
  const order = q.sort === 'ASC' ? [asc(disputes.createdAt), asc(disputes.id)] : [desc(disputes.createdAt), desc(disputes.id)];
  const [rows, [total]] = await Promise.all([
    db
      .select({
        dispute: disputes,
        amountKobo: milestones.amountKobo,
        feeKobo: milestones.feeKobo,
        commissionPayer: milestones.commissionPayer,
        escrowBalance: ledgerAccounts.balanceKobo,
        transactionAmountKobo: transactions.transactionAmountKobo,
      })
      .from(disputes)
      .innerJoin(milestones, eq(milestones.id, disputes.milestoneId))
      .innerJoin(transactions, eq(transactions.id, milestones.transactionId))
      .innerJoin(milestoneEscrows, eq(milestoneEscrows.milestoneId, milestones.id))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, milestoneEscrows.id))
      .where(where)
      .orderBy(...order)
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(disputes).where(where),
  ]);
  const ids = rows.map((r) => r.dispute.id);
  const [proposals, evidence] = await Promise.all([loadProposals(db, ids), loadEvidence(db, ids)]);
  return {
    disputes: rows.map((r) =>
      disputeRecord(
        r.dispute,
        proposals.get(r.dispute.id) ?? [],
        maxSellerPayment(
          { milestoneAmount: r.amountKobo, milestoneFee: r.feeKobo, commissionPayer: r.commissionPayer as CommissionPayer, escrowBalance: r.escrowBalance },
          r.transactionAmountKobo,
        ),
        evidence.get(r.dispute.id) ?? [],
        baseUrl,
      ),
    ),
    pagination: pagination(q.page, q.limit, total?.n ?? 0),
  };
}
