import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, lte, or } from 'drizzle-orm';
import { pagination } from '@/lib/contracts/common';
import { metadataToStore } from '@/lib/contracts/metadata';
import type { CheckoutRecord, CreateCheckoutBody, ListCheckoutsQuery } from '@/lib/contracts/checkouts';
import { callbackUrlAllowed, checkoutExpiresAt, checkoutReference, checkoutStatusAt, milestoneFundable, type CheckoutMilestone } from '@/lib/escrow/checkouts';
import { fundingAmount, type CommissionPayer } from '@/lib/escrow/fees';
import type { MilestoneStatus } from '@/lib/escrow/milestone-machine';
import { koboToNaira, parseNaira } from '@/lib/escrow/money';
import { AppError, invalidState, notFound, validation } from '../app-error';
import type { Db } from '../db/client';
import { exactTotal } from '../db/list-counts';
import { checkouts, type ClientRow } from '../db/schema';
import { env } from '../env';
import { uuidv7 } from '../ids';
import { moneyProviderFor } from '../providers';
import { ProviderError } from '../providers/provider';
import { iso, isoOrNull } from '../records/iso';
import { findUser, loadWallet, userIdOfFilter } from '../records/people';
import { findMilestone, type TransactionGraph } from '../records/transaction-graph/queries';
import { lockTransactionOfMilestone } from '../engine/transaction-lock';

export type CheckoutRow = typeof checkouts.$inferSelect;

/**
 * A checkout as the API shows it at `now`: a PENDING one past its expiry reads EXPIRED whether or not the
 * runner has written it yet, as a lapsed deadline has already acted (docs/decisions.md §16, §5).
 */
export function checkoutRecord(c: CheckoutRow, now: Date): CheckoutRecord {
  const status = checkoutStatusAt(c, now);
  return {
    id: c.id,
    reference: c.reference,
    user_id: c.userId,
    purpose: c.purpose,
    milestone_id: c.milestoneId,
    transaction_id: c.transactionId,
    amount: koboToNaira(c.amountKobo),
    currency: 'NGN',
    status,
    authorization_url: c.authorizationUrl,
    callback_url: c.callbackUrl,
    applied: c.applied,
    not_applied_reason: c.notAppliedReason,
    channel: c.channel,
    failure_reason: c.failureReason,
    provider: c.provider,
    metadata: c.metadata,
    expires_at: iso(c.expiresAt),
    created_at: iso(c.createdAt),
    paid_at: isoOrNull(c.paidAt),
    failed_at: isoOrNull(c.failedAt),
    expired_at: status === 'EXPIRED' ? iso(c.expiredAt ?? c.expiresAt) : isoOrNull(c.expiredAt),
  };
}

/** The milestone as a checkout judges it (docs/decisions.md §16): its state, its siblings, the transaction's ending, what funding moves. */
export function checkoutMilestoneOf(graph: TransactionGraph, milestoneId: string): CheckoutMilestone {
  const state = (e: TransactionGraph['milestones'][number]) => ({ id: e.milestone.id, status: e.milestone.status as MilestoneStatus, position: e.milestone.position });
  const entry = findMilestone(graph, milestoneId);
  const m = entry.milestone;
  const status = graph.transaction.status;
  return {
    state: state(entry),
    siblings: graph.milestones.map(state),
    ended: status === 'CANCELED' || status === 'TERMINATED' ? status : null,
    fundingAmount: fundingAmount(m.amountKobo, m.feeKobo, m.commissionPayer as CommissionPayer),
  };
}

type Purpose = { purpose: 'wallet'; walletId: string; amountKobo: number; milestoneId: null; transactionId: null; description: string } | { purpose: 'milestone'; walletId: string; amountKobo: number; milestoneId: string; transactionId: string; description: string };

/** What a checkout pays for, judged now: a milestone that cannot be funded is refused as funding refuses it. */
async function purposeOf(db: Db, client: ClientRow, body: CreateCheckoutBody, now: Date): Promise<Purpose & { email: string; userId: string }> {
  return db.transaction(async (tx) => {
    const user = await findUser(tx, client.id, body.buyer_id);
    if (body.amount !== undefined) {
      const parsed = parseNaira(body.amount);
      if (!parsed.ok) throw validation('amount', parsed.reason);
      const wallet = await loadWallet(tx, user.id);
      if (!wallet) throw notFound('Wallet of user', user.id);
      return { purpose: 'wallet', walletId: wallet.wallet.id, amountKobo: parsed.kobo, milestoneId: null, transactionId: null, description: 'Money into your wallet', email: user.email, userId: user.id };
    }
    // Lapsed deadlines of the transaction settle first, as for funding: the milestone is judged as it stands.
    const graph = await lockTransactionOfMilestone(tx, client, body.milestone_id!, now);
    if (graph.buyer.user.id !== user.id) {
      throw new AppError('WRONG_PARTY', `buyer_id ${user.id} is not the buyer of this transaction: only the buyer can pay for its milestones.`);
    }
    const milestone = checkoutMilestoneOf(graph, body.milestone_id!);
    const fundable = milestoneFundable(milestone);
    if (!fundable.ok) throw invalidState(fundable.reason);
    const entry = findMilestone(graph, body.milestone_id!);
    return {
      purpose: 'milestone',
      walletId: graph.buyer.organisation.walletId,
      amountKobo: milestone.fundingAmount,
      milestoneId: entry.milestone.id,
      transactionId: graph.transaction.id,
      description: `${graph.transaction.title}: ${entry.milestone.title}`,
      email: user.email,
      userId: user.id,
    };
  });
}

/** POST /v1/checkouts (docs/decisions.md §16). `baseUrl`: where this service is reached, for the sandbox's page. */
export async function createCheckout(db: Db, client: ClientRow, body: CreateCheckoutBody, now: Date, baseUrl: string): Promise<CheckoutRecord> {
  const provider = moneyProviderFor(client);
  if (body.callback_url !== undefined && !callbackUrlAllowed(body.callback_url, client.mode)) {
    throw validation('callback_url', client.mode === 'test' ? 'must be an https URL, or plain http to this machine (localhost, 127.0.0.1)' : 'must be an https URL');
  }
  const purpose = await purposeOf(db, client, body, now);
  const reference = checkoutReference(randomBytes(20));
  const page = `${(env().ESCROW_PUBLIC_URL ?? baseUrl).replace(/\/+$/, '')}/checkout/${reference}`;
  const metadata = metadataToStore(body.metadata);
  // Paystack sends the buyer back to our page, which asks it how the payment went before going on to callback_url.
  const authorizationUrl =
    provider.name === 'sandbox'
      ? page
      : await startWithProvider(() => provider.startCheckout({ reference, amountKobo: purpose.amountKobo, email: purpose.email, callbackUrl: page, metadata: { ...metadata, checkout_reference: reference } }));
  const row: CheckoutRow = {
    id: uuidv7(),
    clientId: client.id,
    reference,
    userId: purpose.userId,
    walletId: purpose.walletId,
    purpose: purpose.purpose,
    milestoneId: purpose.milestoneId,
    transactionId: purpose.transactionId,
    amountKobo: purpose.amountKobo,
    status: 'PENDING',
    authorizationUrl,
    callbackUrl: body.callback_url ?? null,
    applied: null,
    notAppliedReason: null,
    channel: null,
    failureReason: null,
    provider: provider.name,
    metadata,
    expiresAt: checkoutExpiresAt(now),
    verifyDueAt: provider.name === 'sandbox' ? null : new Date(Date.now() + env().ESCROW_CHECKOUT_VERIFY_AFTER_MS),
    createdAt: now,
    updatedAt: now,
    paidAt: null,
    failedAt: null,
    expiredAt: null,
  };
  await db.insert(checkouts).values(row);
  return checkoutRecord(row, now);
}

export async function getCheckout(db: Db, client: ClientRow, checkoutId: string, now: Date): Promise<CheckoutRecord> {
  const [row] = await db.select().from(checkouts).where(and(eq(checkouts.id, checkoutId), eq(checkouts.clientId, client.id)));
  if (!row) throw notFound('Checkout', checkoutId);
  return checkoutRecord(row, now);
}

/** GET /v1/checkouts: newest first, paginated like the user list. */
export async function listCheckouts(db: Db, client: ClientRow, q: ListCheckoutsQuery, now: Date) {
  // A PENDING checkout past its expiry is EXPIRED (checkoutRecord): the status filter judges it so too.
  const userId = q.user_id ? await userIdOfFilter(db, client.id, q.user_id) : undefined;
  const where = and(eq(checkouts.clientId, client.id), userId ? eq(checkouts.userId, userId) : undefined, statusFilter(q.status, now));
  const [rows, total] = await Promise.all([
    db.select().from(checkouts).where(where).orderBy(desc(checkouts.createdAt), desc(checkouts.id)).limit(q.limit).offset((q.page - 1) * q.limit),
    exactTotal(db, undefined, checkouts, where),
  ]);
  return { checkouts: rows.map((r) => checkoutRecord(r, now)), pagination: pagination(q.page, q.limit, total, null, false) };
}

function statusFilter(status: ListCheckoutsQuery['status'], now: Date) {
  if (status === 'PENDING') return and(eq(checkouts.status, 'PENDING'), gt(checkouts.expiresAt, now));
  if (status === 'EXPIRED') return or(eq(checkouts.status, 'EXPIRED'), and(eq(checkouts.status, 'PENDING'), lte(checkouts.expiresAt, now)));
  return status ? eq(checkouts.status, status) : undefined;
}

/** The provider's payment page; nothing is stored when it cannot make one, so the request can simply be repeated. */
async function startWithProvider(start: () => Promise<{ authorizationUrl: string }>): Promise<string> {
  try {
    return (await start()).authorizationUrl;
  } catch (error) {
    if (error instanceof ProviderError) throw new AppError('PROVIDER_UNAVAILABLE', `The payment provider could not start the payment just now: try again. (${error.message})`);
    throw error;
  }
}
