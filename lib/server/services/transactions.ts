import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, or } from 'drizzle-orm';
import { pagination } from '@/lib/contracts/common';
import type { CreateTransactionBody, ListTransactionsQuery } from '@/lib/contracts/transactions';
import { INSPECTION_DAYS_DEFAULT } from '@/lib/escrow/deadlines';
import { milestoneFee } from '@/lib/escrow/fees';
import { parseNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { milestoneEscrows, milestones, transactions } from '../db/schema';
import { recordEvent } from '../events/record-event';
import { AppError, notFound } from '../http/app-error';
import type { ClientRow } from '../http/auth';
import { loadParties, partyWithoutOrganisation } from '../records/people';
import { loadTransactionGraph, transactionRecord, transactionWithMilestonesRecord } from '../records/transaction-graph';
import { writeMilestoneLog } from './milestone-action';
import { findParty } from './parties';
import { createLedgerAccount } from './post-transfer';

function kobo(value: number, field: string): number {
  const parsed = parseNaira(value);
  if (!parsed.ok) throw new AppError('VALIDATION_ERROR', `${field} ${parsed.reason}`, [{ field, message: parsed.reason }]);
  return parsed.kobo;
}

export async function createTransaction(db: Db, client: ClientRow, body: CreateTransactionBody, now: Date, baseUrl: string) {
  const buyer = await findParty(db, client.id, body.buyer_id);
  if (!buyer) throw notFound('Buyer', body.buyer_id);
  const seller = await findParty(db, client.id, body.seller_id);
  if (!seller) throw notFound('Seller', body.seller_id);
  if (buyer.id === seller.id) {
    throw new AppError('VALIDATION_ERROR', 'The buyer and the seller must be different users.', [{ field: 'seller_id', message: 'must differ from buyer_id' }]);
  }
  const payer = body.commission_payer ?? 'SELLER_100';
  const policy = { basisPoints: client.feeBasisPoints, capKobo: client.feeCapKobo };
  const planned = body.milestones.map((m, index) => {
    const amountKobo = kobo(m.amount, `milestones.${index}.amount`);
    return { input: m, amountKobo, feeKobo: milestoneFee(amountKobo, policy), id: randomUUID(), escrowId: randomUUID(), position: index + 1 };
  });
  const transactionId = randomUUID();
  const total = planned.reduce((sum, m) => sum + m.amountKobo, 0);

  return db.transaction(async (tx) => {
    await tx.insert(transactions).values({
      id: transactionId,
      clientId: client.id,
      title: body.title,
      description: body.description,
      category: body.category ?? 'GOODS',
      subCategory: body.sub_category ?? 'Food/beverage/agriculture',
      transactionContractUrl: body.transaction_contract_url ?? `${baseUrl}/v1/transactions/${transactionId}`,
      status: 'MILESTONE_PENDING_FUNDING',
      buyerPartyId: buyer.id,
      sellerPartyId: seller.id,
      commissionPayer: payer,
      transactionAmountKobo: total,
      currentMilestoneId: planned[0]?.id ?? null,
      onLastMilestone: planned.length === 1,
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(milestones).values(
      planned.map((m) => ({
        id: m.id,
        clientId: client.id,
        transactionId,
        title: m.input.title,
        description: m.input.description,
        amountKobo: m.amountKobo,
        feeKobo: m.feeKobo,
        position: m.position,
        dueDate: new Date(m.input.due_date),
        status: 'PENDING_FUNDING',
        commissionPayer: payer,
        inspectionDuration: m.input.inspection_duration ?? INSPECTION_DAYS_DEFAULT,
        rateUsed: policy.basisPoints,
        createdAt: now,
        updatedAt: now,
      })),
    );
    for (const m of planned) {
      await createLedgerAccount(tx, { id: m.escrowId, clientId: client.id, kind: 'escrow', now });
      await tx.insert(milestoneEscrows).values({ id: m.escrowId, milestoneId: m.id, createdAt: now, updatedAt: now });
      await writeMilestoneLog(tx, { milestoneId: m.id, actor: 'client', message: 'Milestone created; waiting for the buyer to fund it.', now });
    }
    const graph = await loadTransactionGraph(tx, client.id, transactionId);
    if (!graph) throw new Error('created transaction not found');
    const record = transactionWithMilestonesRecord(graph);
    await recordEvent(tx, { clientId: client.id, type: 'transaction.created', transactionId, data: { actor: 'client', automatic: false, transaction: record }, now });
    return record;
  });
}

export async function getTransaction(db: Db, client: ClientRow, transactionId: string) {
  const graph = await loadTransactionGraph(db, client.id, transactionId);
  if (!graph) throw notFound('Transaction', transactionId);
  return transactionWithMilestonesRecord(graph);
}

export async function listTransactions(db: Db, client: ClientRow, q: ListTransactionsQuery) {
  let partyFilter;
  if (q.user_id) {
    const party = await findParty(db, client.id, q.user_id);
    if (!party) throw notFound('User', q.user_id);
    partyFilter = or(eq(transactions.buyerPartyId, party.id), eq(transactions.sellerPartyId, party.id));
  }
  const where = and(eq(transactions.clientId, client.id), partyFilter, q.status ? eq(transactions.status, q.status) : undefined);
  const order = q.sort === 'ASC' ? [asc(transactions.createdAt), asc(transactions.id)] : [desc(transactions.createdAt), desc(transactions.id)];
  const [rows, [total]] = await Promise.all([
    db.select().from(transactions).where(where).orderBy(...order).limit(q.limit).offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(transactions).where(where),
  ]);
  const people = await loadParties(db, rows.flatMap((t) => [t.buyerPartyId, t.sellerPartyId]));
  const party = (id: string) => {
    const p = people.get(id);
    if (!p) throw new Error(`party ${id} missing`);
    return partyWithoutOrganisation(p);
  };
  return {
    transactions: rows.map((t) => ({ ...transactionRecord(t), buyer: party(t.buyerPartyId), seller: party(t.sellerPartyId) })),
    pagination: pagination(q.page, q.limit, total?.n ?? 0),
  };
}

