import 'server-only';
import { and, eq, ilike, or } from 'drizzle-orm';
import { amountWithin, containsPattern, createdWithin } from '../db/list-filters';
import { DEFAULT_CATEGORY, DEFAULT_COMMISSION_PAYER, DEFAULT_SUB_CATEGORY, type CreateTransactionBody, type ListTransactionsQuery, type UpdateTransactionBody } from '@/lib/contracts/transactions';
import { metadataToStore } from '@/lib/contracts/metadata';
import { databaseErrorOf } from '../db/database-error';
import { patchedMetadata } from '../engine/metadata';
import { INSPECTION_DAYS_DEFAULT } from '@/lib/escrow/deadlines';
import { pastDueDates } from '@/lib/escrow/due-dates';
import { milestoneFee } from '@/lib/escrow/fees';
import { parseNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { ledgerAccounts, milestoneEscrows, milestoneLogs, milestones, transactions } from '../db/schema';
import { pagedList } from '../db/paged-list';
import { runAsOneStatement, type Write } from '../db/one-statement';
import { insertRows } from '../db/recordset';
import { eventWrites } from '../events/record-event';
import { uuidv7 } from '../ids';
import { AppError, DuplicateError, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { findPartyGraphs, partyWithoutOrganisation } from '../records/people';
import { loadListedTransactionsExtras, type ListedMilestone } from '../records/transaction-list';
import { loadLogsOfMilestones, loadTransactionGraph, type MilestoneRow, type TransactionGraph, type TransactionRow } from '../records/transaction-graph/queries';
import { milestoneLogRecord, transactionRecord, transactionTurns, transactionWithMilestonesRecord } from '../records/transaction-graph/present';
import { disputeSummaryRecord, disputeTurnsOf, disputesOfTransactions, DISPUTES_TAKING_TURNS } from '../records/disputes';
import type { TransactionDetailRecord, TransactionInclude } from '@/lib/contracts/records';
import { awaitingOf } from '@/lib/escrow/turns';
import type { MilestoneStatus } from '@/lib/escrow/milestone-machine';
import { findParty } from '../engine/parties';
import { getWallet } from './wallets';

function kobo(value: number, field: string): number {
  const parsed = parseNaira(value);
  if (!parsed.ok) throw new AppError('VALIDATION_ERROR', `${field} ${parsed.reason}`, [{ field, message: parsed.reason }]);
  return parsed.kobo;
}

/** A due date not later than now (the client's clock: a test key's test clock) is 400, each one named. */
function refusePastDueDates(dueDates: Date[], now: Date) {
  const past = pastDueDates(dueDates, now);
  if (past.length === 0) return;
  const errors = past.map((index) => ({ field: `milestones.${index}.due_date`, message: `must be later than now (${now.toISOString()})` }));
  throw new AppError('VALIDATION_ERROR', `Invalid request: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, errors);
}

/**
 * Creates the transaction, its milestones, their escrow accounts and log lines, and the event, as one
 * statement (atomic by itself). The rows are built here in full, so the
 * response is what was stored without reading it back.
 */
export async function createTransaction(db: Db, client: ClientRow, body: CreateTransactionBody, now: Date, baseUrl: string) {
  refusePastDueDates(body.milestones.map((m) => new Date(m.due_date)), now);
  const named = await findPartyGraphs(db, client.id, [body.buyer_id, body.seller_id]);
  const buyer = named.get(body.buyer_id);
  if (!buyer) throw notFound('Buyer', body.buyer_id);
  const seller = named.get(body.seller_id);
  if (!seller) throw notFound('Seller', body.seller_id);
  for (const [role, named] of [['buyer', buyer], ['seller', seller]] as const) {
    if (named.user.deactivatedAt) {
      const who = `${named.user.firstName} ${named.user.lastName}`;
      throw new AppError('USER_DEACTIVATED', `The ${role}, ${who}, is deactivated: reactivate them before starting a new transaction with them.`);
    }
  }
  if (buyer.party.id === seller.party.id) {
    throw new AppError('VALIDATION_ERROR', 'The buyer and the seller must be different users.', [{ field: 'seller_id', message: 'must differ from buyer_id' }]);
  }
  const payer = body.commission_payer ?? DEFAULT_COMMISSION_PAYER;
  // A per-deal rate replaces the client's rate only: the client's cap still bounds each milestone's fee (§19).
  const policy = { basisPoints: body.fee_basis_points ?? client.feeBasisPoints, capKobo: client.feeCapKobo };
  const externalReference = body.external_reference ?? null;
  if (externalReference !== null) {
    const existing = await transactionIdWithReference(db, client.id, externalReference);
    if (existing) throw duplicateReference(externalReference, existing);
  }
  const transactionId = uuidv7();
  const milestoneRows: MilestoneRow[] = body.milestones.map((m, index) => {
    const amountKobo = kobo(m.amount, `milestones.${index}.amount`);
    return {
      id: uuidv7(),
      clientId: client.id,
      transactionId,
      title: m.title,
      description: m.description,
      amountKobo,
      feeKobo: milestoneFee(amountKobo, policy),
      isMilestoneFunded: false,
      position: index + 1,
      isDelivered: false,
      isCompleted: false,
      deliveryRejectionReason: null,
      isDeliveryRejected: false,
      isReturnProofSent: false,
      isReturnApproved: false,
      isReturnRejected: false,
      dueDateType: 'DEADLINE_DATE',
      dueDate: new Date(m.due_date),
      executionTimeline: null,
      status: 'PENDING_FUNDING',
      commissionPayer: payer,
      discountCode: null,
      inspectionDuration: m.inspection_duration ?? INSPECTION_DAYS_DEFAULT,
      inspectionEndDate: null,
      returnDeadlineDate: null,
      currentExtensionIndex: null,
      extensions: [],
      extensionResponseDueAt: null,
      disputeOpeningDueAt: null,
      amountRefundedKobo: 0,
      amountReleasedKobo: null,
      partialAcceptance: null,
      partialAcceptanceResponseDueAt: null,
      rateUsed: policy.basisPoints,
      proofsOfCompletion: [],
      proofsOfReturn: [],
      metadata: metadataToStore(m.metadata),
      createdAt: now,
      updatedAt: now,
    };
  });
  const transaction: TransactionRow = {
    id: transactionId,
    clientId: client.id,
    title: body.title,
    description: body.description,
    currency: 'NGN',
    locationType: 'LOCAL',
    category: body.category ?? DEFAULT_CATEGORY,
    subCategory: body.sub_category ?? DEFAULT_SUB_CATEGORY,
    transactionContractUrl: body.transaction_contract_url ?? `${baseUrl}/v1/transactions/${transactionId}`,
    status: 'MILESTONE_PENDING_FUNDING',
    transactionOriginator: 'BUYER',
    buyerPartyId: buyer.party.id,
    sellerPartyId: seller.party.id,
    source: 'api',
    commissionPayer: payer,
    transactionAmountKobo: milestoneRows.reduce((sum, m) => sum + m.amountKobo, 0),
    totalAmountFundedKobo: 0,
    totalAmountRefundedKobo: 0,
    totalAmountDisbursedKobo: 0,
    currentMilestoneId: milestoneRows[0]?.id ?? null,
    jobId: null,
    declineReason: null,
    isCompleted: false,
    hasBuyerRated: false,
    hasSellerRated: false,
    onLastMilestone: milestoneRows.length === 1,
    discountCode: null,
    declinedAt: null,
    approvedAt: null,
    dateCanceled: null,
    cancellationRequest: null,
    cancellationResponseDueAt: null,
    endedBy: null,
    endReason: null,
    metadata: metadataToStore(body.metadata),
    externalReference,
    feeBasisPoints: policy.basisPoints,
    updatedBy: null,
    createdAt: now,
    updatedAt: now,
  };
  const graph: TransactionGraph = {
    transaction,
    buyer,
    seller,
    milestones: milestoneRows.map((milestone) => ({ milestone, escrow: { id: uuidv7(), balanceKobo: 0, createdAt: now, updatedAt: now } })),
  };

  const record = transactionWithMilestonesRecord(graph, now);
  const event = eventWrites({ clientId: client.id, type: 'transaction.created', transactionId, data: { actor: 'client', automatic: false, transaction: record }, now });
  const writes: Write[] = [
    insertRows(transactions, [transaction]),
    insertRows(milestones, milestoneRows),
    insertRows(
      ledgerAccounts,
      graph.milestones.map(({ escrow }) => ({ id: escrow.id, clientId: client.id, kind: 'escrow' as const, balanceKobo: 0, createdAt: now, updatedAt: now })),
    ),
    insertRows(
      milestoneEscrows,
      graph.milestones.map(({ milestone, escrow }) => ({ id: escrow.id, milestoneId: milestone.id, createdAt: now, updatedAt: now })),
    ),
    insertRows(
      milestoneLogs,
      milestoneRows.map((m) => ({
        id: uuidv7(),
        milestoneId: m.id,
        actor: 'client' as const,
        logMessage: 'Milestone created; waiting for the buyer to fund it.',
        isAutomatic: false,
        createdAt: now,
        updatedAt: now,
      })),
    ),
    ...event.writes,
  ];
  if (externalReference === null) {
    await runAsOneStatement(db, 'create_transaction', writes);
    return record;
  }
  // Two concurrent creates with one reference: the unique index decides, and the loser names the winner. The
  // savepoint keeps a caller's enclosing transaction (an Idempotency-Key's) usable for that lookup.
  await db.transaction((tx) => runAsOneStatement(tx, 'create_transaction', writes)).catch(async (error: unknown) => {
    if (databaseErrorOf(error)?.constraint !== EXTERNAL_REFERENCE_INDEX) throw error;
    const existing = await transactionIdWithReference(db, client.id, externalReference);
    throw existing ? duplicateReference(externalReference, existing) : error;
  });
  return record;
}

const EXTERNAL_REFERENCE_INDEX = 'transactions_client_external_reference_idx';

async function transactionIdWithReference(db: Db, clientId: string, externalReference: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.clientId, clientId), eq(transactions.externalReference, externalReference)))
    .limit(1);
  return row?.id;
}

function duplicateReference(externalReference: string, existingId: string) {
  return new DuplicateError(
    'DUPLICATE_EXTERNAL_REFERENCE',
    `Your transaction ${existingId} already has the external_reference ${JSON.stringify(externalReference)}: each of your transactions needs its own.`,
    [{ field: 'external_reference', message: `is already used by transaction ${existingId}` }],
    existingId,
  );
}

/** PATCH /v1/transactions/{id} (docs/decisions.md §19): metadata merges under the transaction's lock, so two changes never lose one another's keys. */
export async function updateTransaction(db: Db, client: ClientRow, transactionId: string, body: UpdateTransactionBody, now: Date) {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ metadata: transactions.metadata })
      .from(transactions)
      .where(and(eq(transactions.id, transactionId), eq(transactions.clientId, client.id)))
      .for('update');
    if (!current) throw notFound('Transaction', transactionId);
    const metadata = patchedMetadata(current.metadata, body.metadata);
    await tx.update(transactions).set({ metadata, updatedAt: now }).where(eq(transactions.id, transactionId));
  });
  return getTransaction(db, client, transactionId, now);
}

export async function getTransaction(db: Db, client: ClientRow, transactionId: string, now: Date) {
  const graph = await loadTransactionGraph(db, client.id, transactionId);
  if (!graph) throw notFound('Transaction', transactionId);
  return transactionWithMilestonesRecord(graph, now);
}

/**
 * GET /v1/transactions/{id}: the record, whose turn it is, and what `include` asks for (each milestone's log lines,
 * its latest dispute), each read for all milestones at once.
 */
export async function getTransactionDetail(db: Db, client: ClientRow, transactionId: string, now: Date, include: ReadonlySet<TransactionInclude>): Promise<TransactionDetailRecord> {
  const graph = await loadTransactionGraph(db, client.id, transactionId);
  if (!graph) throw notFound('Transaction', transactionId);
  const withDisputes = include.has('disputes');
  const [disputeRows, logs, buyerWallet] = await Promise.all([
    disputesOfTransactions(db, [transactionId], !withDisputes),
    include.has('milestone_logs') ? loadLogsOfMilestones(db, graph.milestones.map((m) => m.milestone.id)) : undefined,
    include.has('buyer_wallet') ? getWallet(db, client, graph.buyer.user.id) : undefined,
  ]);
  const record = transactionWithMilestonesRecord(graph, now);
  const disputeOf = new Map(disputeRows.map(({ dispute }) => [dispute.milestoneId, dispute]));
  const takingTurns = disputeRows.filter(({ dispute }) => DISPUTES_TAKING_TURNS.includes(dispute.status)).map(({ dispute }) => disputeTurnsOf(dispute));
  return {
    ...record,
    milestones: record.milestones.map((m) => {
      const dispute = disputeOf.get(m.id);
      return {
        ...m,
        ...(logs ? { milestone_logs: logs.filter((l) => l.milestoneId === m.id).map(milestoneLogRecord) } : {}),
        ...(withDisputes ? { latest_dispute: dispute ? disputeSummaryRecord(dispute) : null } : {}),
      };
    }),
    ...(buyerWallet ? { buyer_wallet: buyerWallet } : {}),
    ...awaitingOf(record, takingTurns),
  };
}

type TransactionListShape = {
  sort: 'ASC' | 'DESC';
  clientId: string;
  partyId?: string;
  externalReference?: string;
  status?: string;
  term?: string;
  createdFrom?: string;
  createdTo?: string;
  amountMin?: number;
  amountMax?: number;
};

const transactionPage = pagedList(transactions, 'transactions', 'Transaction', (v: TransactionListShape) => eq(transactions.clientId, v.clientId), (v: TransactionListShape) =>
  and(
    v.partyId !== undefined ? or(eq(transactions.buyerPartyId, v.partyId), eq(transactions.sellerPartyId, v.partyId)) : undefined,
    v.status !== undefined ? eq(transactions.status, v.status) : undefined,
    v.externalReference !== undefined ? eq(transactions.externalReference, v.externalReference) : undefined,
    // The search box finds a deal by its title or by the integrator's own reference.
    v.term !== undefined ? or(ilike(transactions.title, v.term), ilike(transactions.externalReference, v.term)) : undefined,
    createdWithin(transactions.createdAt, v.createdFrom, v.createdTo),
    amountWithin(transactions.transactionAmountKobo, v.amountMin, v.amountMax),
  ),
  (v: TransactionListShape) =>
    v.term === undefined && v.externalReference === undefined && v.createdFrom === undefined && v.createdTo === undefined && v.amountMin === undefined && v.amountMax === undefined
      ? { list: 'transactions', scope: v.clientId, filters: { party: v.partyId, status: v.status } }
      : undefined,
);

export async function listTransactions(db: Db, client: ClientRow, q: ListTransactionsQuery, now: Date) {
  let partyId: string | undefined;
  if (q.user_id) {
    const party = await findParty(db, client.id, q.user_id);
    if (!party) throw notFound('User', q.user_id);
    partyId = party.id;
  }
  const shape: TransactionListShape = {
    sort: q.sort,
    clientId: client.id,
    partyId,
    externalReference: q.external_reference,
    status: q.status,
    term: containsPattern(q.search),
    createdFrom: q.created_from,
    createdTo: q.created_to,
    amountMin: q.amount_min,
    amountMax: q.amount_max,
  };
  const { rows, pagination } = await transactionPage(db, shape, q);
  // What the list shows of each row besides the row (its parties, whose turn, the current milestone) is one statement for the page.
  const { people, milestones: pageMilestones } = await loadListedTransactionsExtras(
    db,
    client.id,
    rows.map((t) => t.id),
    rows.flatMap((t) => [t.buyerPartyId, t.sellerPartyId]),
  );
  const milestonesOf = new Map<string, ListedMilestone[]>();
  for (const m of pageMilestones) {
    const listed = milestonesOf.get(m.milestone.transactionId);
    if (listed) listed.push(m);
    else milestonesOf.set(m.milestone.transactionId, [m]);
  }
  const party = (id: string) => {
    const p = people.get(id);
    if (!p) throw new Error(`party ${id} missing`);
    return partyWithoutOrganisation(p);
  };
  return {
    transactions: rows.map((t) => {
      const buyer = party(t.buyerPartyId);
      const seller = party(t.sellerPartyId);
      const entries = milestonesOf.get(t.id) ?? [];
      const turns = transactionTurns({ transaction: t, milestones: entries }, now);
      const current = entries.find((e) => e.milestone.id === t.currentMilestoneId)?.milestone;
      const disputes = entries.flatMap(({ dispute }) => (dispute && DISPUTES_TAKING_TURNS.includes(dispute.status) ? [disputeTurnsOf(dispute)] : []));
      return {
        ...transactionRecord(t, { buyerUserId: buyer.user_id, sellerUserId: seller.user_id }),
        buyer,
        seller,
        allowed_actions: turns.allowed_actions,
        current_milestone: current ? { id: current.id, title: current.title, status: current.status as MilestoneStatus } : null,
        ...awaitingOf(turns, disputes),
      };
    }),
    pagination,
  };
}

