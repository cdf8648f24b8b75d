import 'server-only';
import type {
  CustomersView,
  DisputeSummary,
  DisputeView,
  MilestoneLog,
  MyTransactionItem,
  MyTransactionsView,
  TransactionFilters,
  TransactionView,
  WalletView,
} from '@/lib/contracts/dashboard';
import type { CustomerWalletView, PersonName } from '@/lib/contracts/dashboard-payouts';
import { proofFileIds } from '@/lib/contracts/dashboard-plain';
import { notFound } from 'next/navigation';
import { getDb } from '../db/client';
import { firstTurn } from '@/lib/escrow/turns';
import { escrowFor, type ApiFailure } from '../escrow-client';
import { accountsForUsers } from './accounts';
import { apiListFilters } from './list-filters';
import type { Actor, ClientActor } from './actor';
import { disputeFor, transactionFor, type Owned } from './ownership';
import { withoutIntegrationFields } from './integration-fields';
import { proofTokens } from './proof-links';

export type View<T> = { kind: 'ok'; view: T } | { kind: 'not_found' } | { kind: 'error'; failure: ApiFailure };

const DISPUTED = new Set(['IN_DISPUTE', 'DISPUTE_RESOLVED']);

function passOn<T>(owned: Owned<unknown>): View<T> {
  if (owned.kind === 'not_found') return { kind: 'not_found' };
  if (owned.kind === 'error') return { kind: 'error', failure: owned.failure };
  throw new Error('passOn on an owned record');
}

/** What a resolved dispute paid the seller, by how it ended (docs/decisions.md §6). */
function paidToSeller(d: Pick<DisputeSummary, 'resolution' | 'dispute_amount' | 'verdict_seller_amount'>, milestoneAmount: number): number {
  if (d.resolution === 'agreement') return d.dispute_amount;
  if (d.resolution === 'verdict') return d.verdict_seller_amount ?? 0;
  if (d.resolution === 'forfeit_buyer') return milestoneAmount;
  return 0;
}

/** The transaction page's record: one call, with every milestone's log lines and latest dispute (the API's `include`), and for an admin the buyer's wallet. */
export async function transactionView(actor: Actor, id: string): Promise<View<TransactionView>> {
  const owned = await transactionFor(actor, id, actor.kind === 'admin' ? 'milestone_logs,disputes,buyer_wallet' : 'milestone_logs,disputes');
  if (owned.kind !== 'ok') return passOn(owned);
  const { awaiting: _awaiting, next_deadline: _next, buyer_wallet: buyerWallet, milestones: detailed, ...rest } = owned.record;
  const logs: Record<string, MilestoneLog[]> = {};
  const disputes: Record<string, string> = {};
  const settlements: Record<string, number> = {};
  const milestones = detailed.map(({ milestone_logs, latest_dispute, ...m }) => {
    if (milestone_logs) logs[m.id] = milestone_logs;
    if (latest_dispute && DISPUTED.has(m.status)) {
      disputes[m.id] = latest_dispute.id;
      if (m.status === 'DISPUTE_RESOLVED') settlements[m.id] = paidToSeller(latest_dispute, m.amount);
    }
    return m;
  });
  const record = { ...rest, milestones };
  const proofs = proofTokens(actor, proofFileIds(milestones.flatMap((m) => [...m.proofs_of_completion, ...m.proofs_of_return])), new Date());
  const transaction = owned.viewer === 'admin' ? record : withoutIntegrationFields(record);
  // The admin's page shows the buyer's balance; the buyer's funding dialog reads its own when opened (/data/wallet/balance).
  const buyerBalance = owned.viewer === 'admin' ? buyerWallet?.balance : undefined;
  return { kind: 'ok', view: { transaction, viewer: owned.viewer, logs, disputes, settlements, proofTokens: proofs, ...(buyerBalance === undefined ? {} : { buyerBalance }) } };
}

export const MY_TRANSACTIONS_PAGE_SIZE = 20;

/**
 * A customer's transactions, those waiting for them first and the most pressing of those at the top. The list's items say
 * whose turn it is (the API decides, lib/escrow/turns.ts, not the browser): one call for the page.
 */
export async function myTransactions(actor: Extract<Actor, { kind: 'customer' }>, page: number): Promise<View<MyTransactionsView>> {
  const api = escrowFor(actor);
  const list = await api.call('GET /transactions', { query: { user_id: actor.escrowUserId, page, limit: MY_TRANSACTIONS_PAGE_SIZE, sort: 'DESC' } });
  if (!list.ok) return list.status === 404 ? { kind: 'not_found' } : { kind: 'error', failure: list };
  const items = list.data.transactions.map((entry): MyTransactionItem => {
    const { awaiting, next_deadline: _next, allowed_actions: _allowed, current_milestone: current, ...t } = entry;
    const role = t.buyer.user_id === actor.escrowUserId ? 'buyer' : 'seller';
    const turns = awaiting[role];
    const first = firstTurn(turns);
    return {
      transaction: withoutIntegrationFields(t),
      role,
      awaiting: [...new Set(turns.map((turn) => turn.action))],
      dueAt: first?.due_at ?? null,
      href: first?.dispute_id ? `/disputes/${first.dispute_id}` : `/transactions/${t.id}`,
      ...(current ? { currentMilestone: { title: current.title, status: current.status } } : {}),
    };
  });
  const urgency = (i: MyTransactionItem) => (i.awaiting.length === 0 ? 2 : i.dueAt ? 0 : 1);
  items.sort((a, b) => urgency(a) - urgency(b) || (a.dueAt && b.dueAt ? Date.parse(a.dueAt) - Date.parse(b.dueAt) : 0));
  return { kind: 'ok', view: { items, pagination: list.data.pagination } };
}

export async function disputeView(actor: Actor, id: string): Promise<View<DisputeView>> {
  const owned = await disputeFor(actor, id);
  if (owned.kind !== 'ok') return passOn(owned);
  const evidenceFiles = owned.record.evidence.flatMap((e) => e.files.map((f) => f.url));
  return { kind: 'ok', view: { dispute: owned.record, viewer: owned.viewer, transactionId: owned.record.milestone.transaction_id, proofTokens: proofTokens(actor, proofFileIds(evidenceFiles), new Date()) } };
}

/** The customer an admin's customer pages are about: an unknown or malformed id is the page's 404. */
export async function customerForAdmin(actor: ClientActor, userId: string) {
  const user = await escrowFor(actor).call('GET /users/:id', { param: { id: userId } });
  if (!user.ok && (user.status === 404 || user.status === 400)) notFound();
  return user;
}

/** A wallet and a page of its history: the first page in one call (the API's `include=history`). */
export async function walletView(actor: ClientActor, userId: string, page = 1): Promise<View<WalletView>> {
  const api = escrowFor(actor);
  if (page === 1) {
    const read = await api.call('GET /wallets/:user_id', { param: { user_id: userId }, query: { include: 'history' } });
    if (!read.ok) return read.status === 404 ? { kind: 'not_found' } : { kind: 'error', failure: read };
    const { history, payouts: _p, bank_accounts: _b, user: _u, ...wallet } = read.data;
    return history ? { kind: 'ok', view: { wallet, history } } : { kind: 'error', failure: missingInclude('history') };
  }
  const [wallet, history] = await Promise.all([api.call('GET /wallets/:user_id', { param: { user_id: userId } }), api.call('GET /wallets/:user_id/history', { param: { user_id: userId }, query: { page, limit: 20 } })]);
  if (!wallet.ok) return wallet.status === 404 ? { kind: 'not_found' } : { kind: 'error', failure: wallet };
  if (!history.ok) return { kind: 'error', failure: history };
  const { history: _h, payouts: _p, bank_accounts: _b, user: _u, ...record } = wallet.data;
  return { kind: 'ok', view: { wallet: record, history: history.data } };
}

/** An answer without the part it was asked to include: the API is older than this dashboard. */
function missingInclude(part: string): ApiFailure {
  return { ok: false, status: 502, code: 'INTERNAL_ERROR', message: `The API did not include the wallet's ${part}.` };
}

/**
 * Everything the customer's Wallet page opens with, in one call: the balance, the first page of its history, of its
 * payouts and of its saved accounts, and its owner's name for the payee check.
 */
export async function customerWalletView(actor: Extract<Actor, { kind: 'customer' }>): Promise<View<CustomerWalletView & { me: PersonName }>> {
  const read = await escrowFor(actor).call('GET /wallets/:user_id', { param: { user_id: actor.escrowUserId }, query: { include: 'history,payouts,bank_accounts,user' } });
  if (!read.ok) return read.status === 404 ? { kind: 'not_found' } : { kind: 'error', failure: read };
  const { history, payouts, bank_accounts: accounts, user, ...wallet } = read.data;
  if (!history || !payouts || !accounts || !user) return { kind: 'error', failure: missingInclude('history, payouts, bank accounts and owner') };
  return {
    kind: 'ok',
    view: {
      wallet: { wallet, history },
      payouts: { ...payouts, payouts: payouts.payouts.map(withoutIntegrationFields) },
      // The list carries each account's user; a customer's page needs only the accounts.
      accounts: { bank_accounts: accounts.bank_accounts.map(({ user: _user, ...account }) => account) },
      me: { firstName: user.first_name, lastName: user.last_name },
    },
  };
}

export const CUSTOMERS_PAGE_SIZE = 20;
export const TRANSACTIONS_PAGE_SIZE = 20;

/** A page of the admin's transactions list with the filters its data route read; `limit` for the CSV download's larger pages. */
export function adminTransactions(actor: Extract<Actor, { kind: 'admin' }>, f: TransactionFilters, limit = TRANSACTIONS_PAGE_SIZE) {
  const query = {
    page: f.page,
    limit,
    sort: 'DESC',
    ...(f.status ? { status: f.status } : {}),
    ...(f.user_id ? { user_id: f.user_id } : {}),
    ...apiListFilters(f),
  };
  return escrowFor(actor).call('GET /transactions', { query });
}

/** A page of the customers list, filtered by name or email and created day; `limit` for the CSV download's larger pages. */
export async function customersView(
  actor: Extract<Actor, { kind: 'admin' }>,
  q: { page: number; search?: string; created_from?: string; created_to?: string },
  limit = CUSTOMERS_PAGE_SIZE,
): Promise<View<CustomersView>> {
  const list = await escrowFor(actor).call('GET /users', { query: { page: q.page, limit, sort: 'DESC', ...apiListFilters(q) } });
  if (!list.ok) return { kind: 'error', failure: list };
  const accounts = await accountsForUsers(await getDb(), actor.clientId, list.data.users.map((u) => u.id));
  const byUser = new Map(accounts.map((a) => [a.escrowUserId, a]));
  return {
    kind: 'ok',
    view: {
      customers: list.data.users.map((user) => {
        const account = byUser.get(user.id);
        return { user, access: !account ? 'none' : account.passwordHash ? 'active' : 'invited' };
      }),
      pagination: list.data.pagination,
    },
  };
}
