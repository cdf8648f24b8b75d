import 'server-only';
import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { rowFromJson } from '../../db/rows';
import { disputes, milestoneLogs, milestones, organisations, parties, transactions, users } from '../../db/schema';
import type { DisputeStatus } from '@/lib/escrow/dispute-machine';
import type { PartyGraph } from '../people';

export type TransactionRow = typeof transactions.$inferSelect;
export type MilestoneRow = typeof milestones.$inferSelect;
export type MilestoneLogRow = typeof milestoneLogs.$inferSelect;
export type EscrowView = { id: string; balanceKobo: number; createdAt: Date; updatedAt: Date };
/** `disputeStatus`: the milestone's dispute's, if it has one (a milestone has at most one); read by the partial-outcome rules. */
export type MilestoneWithEscrow = { milestone: MilestoneRow; escrow: EscrowView; disputeStatus?: DisputeStatus | null };

export type TransactionGraph = {
  transaction: TransactionRow;
  milestones: MilestoneWithEscrow[];
  buyer: PartyGraph;
  seller: PartyGraph;
};

/** A dispute's fields that its deadlines read (lib/escrow/deadlines.ts). */
const disputeClockFields = {
  id: disputes.id,
  milestoneId: disputes.milestoneId,
  status: disputes.status,
  intraPartyMediationEndDate: disputes.intraPartyMediationEndDate,
  evidenceSubmissionEndDate: disputes.evidenceSubmissionEndDate,
  declinedRefundDueAt: disputes.declinedRefundDueAt,
  isBuyerEvidenceSubmitted: disputes.isBuyerEvidenceSubmitted,
  isSellerEvidenceSubmitted: disputes.isSellerEvidenceSubmitted,
};

/** A dispute's fields that its deadlines read, as loaded. */
export type DisputeClockRow = Pick<typeof disputes.$inferSelect, keyof typeof disputeClockFields>;
/** A transaction's milestones and their disputes: what the lapse engine judges. */
export type MilestonesAndDisputes = { milestones: MilestoneWithEscrow[]; disputes: DisputeClockRow[] };

/**
 * The milestones of one transaction with their escrows, and each milestone's dispute (a milestone has at
 * most one), in position order. `transactionOf` says which transaction. Rows come as JSON (db/rows.ts):
 * this read is in every milestone step, and a select of the milestones' columns one by one cost more to
 * build than to run.
 */
function milestonesWithEscrowsWhere(db: DbOrTx, name: string, transactionOf: SQL) {
  return db
    .select({
      milestone: sql<unknown>`to_jsonb(m)`,
      escrowId: sql<string>`e.id`,
      escrowCreatedAt: sql<string>`e.created_at`,
      escrowUpdatedAt: sql<string>`a.updated_at`,
      balanceKobo: sql<string | number>`a.balance_kobo`,
      dispute: DISPUTE_CLOCK_JSON,
    })
    .from(MILESTONES_WITH_ESCROWS)
    .where(sql`m.transaction_id = ${transactionOf}`)
    .orderBy(sql`m.position_in_transaction`)
    .prepare(name)
    .execute();
}

/** The dispute's clock fields alone (not its description, evidence and verdict), as JSON for rowFromJson. */
const DISPUTE_CLOCK_JSON = sql.raw(
  `case when d.id is null then null else jsonb_build_object(${Object.values(disputeClockFields)
    .map((column) => `'${column.name}', d.${column.name}`)
    .join(', ')}) end`,
);

const MILESTONES_WITH_ESCROWS = sql.raw(`milestones m
  join milestone_escrows e on e.milestone_id = m.id
  join ledger_accounts a on a.id = e.id
  left join disputes d on d.milestone_id = m.id`);

async function milestonesAndDisputesWhere(db: DbOrTx, name: string, transactionOf: SQL): Promise<MilestonesAndDisputes> {
  const rows = await milestonesWithEscrowsWhere(db, name, transactionOf);
  return {
    milestones: rows.map((r) => ({
      milestone: rowFromJson(milestones, r.milestone),
      escrow: { id: r.escrowId, balanceKobo: Number(r.balanceKobo), createdAt: new Date(r.escrowCreatedAt), updatedAt: new Date(r.escrowUpdatedAt) },
      disputeStatus: (r.dispute as { status: DisputeStatus } | null)?.status ?? null,
    })),
    disputes: rows.flatMap((r): DisputeClockRow[] => (r.dispute ? [rowFromJson(disputes, r.dispute)] : [])),
  };
}

export async function loadMilestonesWithEscrows(db: DbOrTx, transactionId: string): Promise<MilestoneWithEscrow[]> {
  return (await loadMilestonesAndDisputes(db, transactionId)).milestones;
}

/** The milestones and disputes of a transaction; read under the transaction's row lock, they are current. */
export async function loadMilestonesAndDisputes(db: DbOrTx, transactionId: string): Promise<MilestonesAndDisputes> {
  return milestonesAndDisputesWhere(db, 'milestones_of_transaction', sql`${transactionId}`);
}

/**
 * loadMilestonesAndDisputes by one of the transaction's milestones, so that it can be sent beside the
 * statement that locks the transaction; read after that lock is held, so it is current.
 */
export async function loadMilestonesAndDisputesOfMilestone(tx: DbOrTx, milestoneId: string): Promise<MilestonesAndDisputes> {
  return milestonesAndDisputesWhere(tx, 'milestones_beside_milestone', sql`(select sibling.transaction_id from milestones sibling where sibling.id = ${milestoneId})`);
}

/** A transaction with its buyer's and seller's party, user and organisation rows. */
const TRANSACTION_WITH_PARTIES = sql.raw(`transactions t
  join parties bp on bp.id = t.buyer_party_id
  join users bu on bu.id = bp.user_id
  join organisations bo on bo.id = bp.organisation_id
  join parties sp on sp.id = t.seller_party_id
  join users su on su.id = sp.user_id
  join organisations so on so.id = sp.organisation_id`);

// Each table's row as one JSON value (db/rows.ts says why), decoded by transactionWithParties.
const transactionWithPartiesFields = {
  transaction: sql<unknown>`to_jsonb(t)`,
  buyerParty: sql<unknown>`to_jsonb(bp)`,
  buyerUser: sql<unknown>`to_jsonb(bu)`,
  buyerOrganisation: sql<unknown>`to_jsonb(bo)`,
  sellerParty: sql<unknown>`to_jsonb(sp)`,
  sellerUser: sql<unknown>`to_jsonb(su)`,
  sellerOrganisation: sql<unknown>`to_jsonb(so)`,
};

type TransactionWithPartiesJson = { [K in keyof typeof transactionWithPartiesFields]: unknown };

function transactionWithParties(row: TransactionWithPartiesJson): Omit<TransactionGraph, 'milestones'> {
  return {
    transaction: rowFromJson(transactions, row.transaction),
    buyer: { party: rowFromJson(parties, row.buyerParty), user: rowFromJson(users, row.buyerUser), organisation: rowFromJson(organisations, row.buyerOrganisation) },
    seller: { party: rowFromJson(parties, row.sellerParty), user: rowFromJson(users, row.sellerUser), organisation: rowFromJson(organisations, row.sellerOrganisation) },
  };
}

/** Names the transaction row in FOR UPDATE OF. */
const lockedTransaction = alias(transactions, 't');

/**
 * Locks the transaction of one of this client's milestones (FOR UPDATE) and reads its buyer and seller in
 * the same statement. Only the transaction row is locked and re-read after a wait; the parties of a
 * transaction never change, so their rows need neither.
 */
export async function lockTransactionWithParties(
  tx: DbOrTx,
  clientId: string,
  milestoneId: string,
): Promise<Omit<TransactionGraph, 'milestones'> | undefined> {
  const [row] = await tx
    .select(transactionWithPartiesFields)
    .from(TRANSACTION_WITH_PARTIES)
    .where(sql`t.id = (select m.transaction_id from milestones m where m.id = ${milestoneId} and m.client_id = ${clientId})`)
    .for('update', { of: lockedTransaction })
    .prepare('lock_transaction_with_parties')
    .execute();
  return row && transactionWithParties(row);
}

/** A transaction's milestones with their escrows, in position order, as one JSON array. */
const MILESTONES_JSON = sql.raw(`(
  select coalesce(jsonb_agg(jsonb_build_object(
    'milestone', to_jsonb(m), 'escrow_id', e.id, 'escrow_created_at', e.created_at, 'escrow_updated_at', a.updated_at, 'balance_kobo', a.balance_kobo,
    'dispute_status', d.status
  ) order by m.position_in_transaction), '[]'::jsonb)
  from milestones m join milestone_escrows e on e.milestone_id = m.id join ledger_accounts a on a.id = e.id left join disputes d on d.milestone_id = m.id
  where m.transaction_id = t.id)`);

type MilestoneJson = { milestone: unknown; escrow_id: string; escrow_created_at: string; escrow_updated_at: string; balance_kobo: number; dispute_status: string | null };

/**
 * A transaction's whole graph without locks, in one statement and one row, and the log lines of
 * `logsOf` (a milestone's id) beside it. `which` picks the transaction (and says whether it is this client's).
 */
async function readGraph(db: DbOrTx, name: string, which: SQL, logsOf?: string): Promise<{ graph: TransactionGraph; logs: MilestoneLogRow[] } | undefined> {
  const [row] = await graphRows(db, name, which, logsOf);
  return row && graphOfRow(row);
}

function graphRows(db: DbOrTx, name: string, which: SQL, logsOf?: string) {
  return db
    .select({
      ...transactionWithPartiesFields,
      milestones: sql<MilestoneJson[]>`${MILESTONES_JSON}`,
      // In the order written: log ids are UUIDv7.
      logs: logsOf ? sql<unknown[]>`(select coalesce(jsonb_agg(to_jsonb(l) order by l.id), '[]'::jsonb) from milestone_logs l where l.milestone_id = ${logsOf})` : sql<unknown[]>`'[]'::jsonb`,
    })
    .from(TRANSACTION_WITH_PARTIES)
    .where(which)
    .prepare(name)
    .execute();
}

function graphOfRow(row: Awaited<ReturnType<typeof graphRows>>[number]): { graph: TransactionGraph; logs: MilestoneLogRow[] } {
  return {
    graph: {
      ...transactionWithParties(row),
      milestones: row.milestones.map((m) => ({
        milestone: rowFromJson(milestones, m.milestone),
        escrow: { id: m.escrow_id, balanceKobo: Number(m.balance_kobo), createdAt: new Date(m.escrow_created_at), updatedAt: new Date(m.escrow_updated_at) },
        disputeStatus: (m.dispute_status as DisputeStatus | null) ?? null,
      })),
    },
    logs: row.logs.map((l) => rowFromJson(milestoneLogs, l)),
  };
}

/**
 * The graphs of many transactions of this client, with each one's disputes as its deadlines read them
 * (the deadline runner's batch). `pause` is awaited between rows as they are decoded, so that a
 * process's requests are not kept waiting behind a whole batch.
 */
export async function loadTransactionGraphsWithDisputes(
  db: DbOrTx,
  clientId: string,
  transactionIds: string[],
  pause: (index: number) => Promise<void>,
): Promise<{ graph: TransactionGraph; disputes: DisputeClockRow[] }[]> {
  const ids = sql.param(transactionIds);
  const [rows, disputeRows] = await Promise.all([
    graphRows(db, 'graphs_of_transactions', sql`t.id = any(${ids}::uuid[]) and t.client_id = ${clientId}`),
    db
      .select({ transactionId: milestones.transactionId, dispute: disputeClockFields })
      .from(disputes)
      .innerJoin(milestones, eq(milestones.id, disputes.milestoneId))
      .where(sql`${milestones.transactionId} = any(${ids}::uuid[])`)
      .prepare('dispute_clocks_of_transactions')
      .execute(),
  ]);
  const disputesOf = new Map<string, DisputeClockRow[]>();
  for (const d of disputeRows) disputesOf.set(d.transactionId, [...(disputesOf.get(d.transactionId) ?? []), d.dispute]);
  const loaded = [];
  for (const [i, row] of rows.entries()) {
    await pause(i);
    const { graph } = graphOfRow(row);
    loaded.push({ graph, disputes: disputesOf.get(graph.transaction.id) ?? [] });
  }
  return loaded;
}

/** The log lines of these milestones, in the order written, in one statement. */
export async function loadLogsOfMilestones(db: DbOrTx, milestoneIds: string[]): Promise<MilestoneLogRow[]> {
  if (milestoneIds.length === 0) return [];
  return db.select().from(milestoneLogs).where(inArray(milestoneLogs.milestoneId, milestoneIds)).orderBy(asc(milestoneLogs.id)).prepare('logs_of_milestones').execute();
}

function graphOfMilestone(clientId: string, milestoneId: string): SQL {
  return sql`t.client_id = ${clientId} and t.id = (select m.transaction_id from milestones m where m.id = ${milestoneId})`;
}

/** A milestone's whole graph as a reader sees it, and its log lines, in one statement; undefined when it is not this client's milestone. */
export async function readMilestoneWithLogs(db: DbOrTx, clientId: string, milestoneId: string): Promise<{ graph: TransactionGraph; logs: MilestoneLogRow[] } | undefined> {
  return readGraph(db, 'milestone_with_logs', graphOfMilestone(clientId, milestoneId), milestoneId);
}

/** Loads a transaction of this client with its milestones, escrows and parties; undefined when it is not this client's. */
export async function loadTransactionGraph(db: DbOrTx, clientId: string, transactionId: string): Promise<TransactionGraph | undefined> {
  return (await readGraph(db, 'graph_of_transaction', sql`t.id = ${transactionId} and t.client_id = ${clientId}`))?.graph;
}

// Log ids are UUIDv7: written order, even for lines stamped with the same time (a request's clock is one instant).
export async function loadMilestoneLogs(db: DbOrTx, milestoneId: string): Promise<MilestoneLogRow[]> {
  return db.select().from(milestoneLogs).where(eq(milestoneLogs.milestoneId, milestoneId)).orderBy(asc(milestoneLogs.id)).prepare('milestone_logs').execute();
}

export function findMilestone(g: TransactionGraph, milestoneId: string): MilestoneWithEscrow {
  const entry = g.milestones.find((e) => e.milestone.id === milestoneId);
  if (!entry) throw new Error(`milestone ${milestoneId} is not in transaction ${g.transaction.id}`);
  return entry;
}
