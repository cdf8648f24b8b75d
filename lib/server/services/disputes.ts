import 'server-only';
import { and, eq } from 'drizzle-orm';
import { pagination } from '@/lib/contracts/common';
import type { ListDisputesQuery } from '@/lib/contracts/disputes';
import type { Db, DbOrTx } from '../db/client';
import { checkPageRequest, requireCursorRow } from '../db/paged-list';
import { disputes } from '../db/schema';
import type { ClientRow } from '../db/schema';
import { notFound } from '../app-error';
import { disputePage, disputeWithPartiesRecord, findDispute, loadEvidence, loadProposals } from '../records/disputes';
import { readMilestoneWithLogs } from '../records/transaction-graph/queries';

/** File URLs in the record are on `baseUrl`, where the caller reaches this API. */
export async function loadDisputeWithParties(db: DbOrTx, clientId: string, disputeId: string, baseUrl: string) {
  const dispute = await findDispute(db, clientId, disputeId);
  if (!dispute) throw notFound('Dispute', disputeId);
  const [read, proposals, evidence] = await Promise.all([
    readMilestoneWithLogs(db, clientId, dispute.milestoneId),
    loadProposals(db, [dispute.id]),
    loadEvidence(db, [dispute.id]),
  ]);
  if (!read) throw notFound('Dispute', disputeId);
  return disputeWithPartiesRecord(dispute, proposals.get(dispute.id) ?? [], read.graph, read.logs, evidence.get(dispute.id) ?? [], baseUrl);
}

export async function getDispute(db: Db, client: ClientRow, disputeId: string, baseUrl: string) {
  return loadDisputeWithParties(db, client.id, disputeId, baseUrl);
}

export async function listDisputes(db: Db, client: ClientRow, q: ListDisputesQuery, baseUrl: string) {
  const where = and(
    eq(disputes.clientId, client.id),
    q.milestone_id ? eq(disputes.milestoneId, q.milestone_id) : undefined,
    q.status ? eq(disputes.status, q.status) : undefined,
  );
  checkPageRequest(q);
  if (q.after !== undefined) await requireCursorRow(db, disputes, eq(disputes.clientId, client.id), q.after, 'Dispute');
  const { rows, total, nextAfter } = await disputePage(db, { where, page: q.page, limit: q.limit, after: q.after, newestFirst: q.sort !== 'ASC', baseUrl });
  return { disputes: rows.map((r) => r.record), pagination: pagination(q.page, q.limit, total, nextAfter, q.after !== undefined) };
}
