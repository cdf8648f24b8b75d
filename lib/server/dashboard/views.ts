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
import { notFound } from 'next/navigation';
import { getDb } from '../db/client';
import { escrowFor, type ApiFailure, type EscrowClient } from '../escrow-client';
import { accountsForUsers } from './accounts';
import { apiListFilters } from './list-filters';
import type { Actor, ClientActor } from './actor';
import { disputeFor, transactionFor, type Owned } from './ownership';
import { withoutIntegrationFields } from './integration-fields';
import { firstTurn, turnsOf } from './turns';

export type View<T> = { kind: 'ok'; view: T } | { kind: 'not_found' } | { kind: 'error'; failure: ApiFailure };

const DISPUTED = new Set(['IN_DISPUTE', 'DISPUTE_RESOLVED']);

async function mapLimit<T, U>(items: T[], limit: number, fn: (item: T) => Promise<U>): Promise<U[]> {
  const out: U[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await fn(items[index] as T);
      }
    }),
  );
  return out;
}

function passOn<T>(owned: Owned<unknown>): View<T> {
  if (owned.kind === 'not_found') return { kind: 'not_found' };
  if (owned.kind === 'error') return { kind: 'error', failure: owned.failure };
  throw new Error('passOn on an owned record');
}

/** The milestone's latest dispute (a milestone has at most one open; a withdrawn one may precede it). */
async function latestDispute(api: EscrowClient, milestoneId: string): Promise<DisputeSummary | undefined> {
  const found = await api.call('GET /dispute', { query: { milestone_id: milestoneId, limit: 1 } });
  return found.ok ? found.data.disputes[0] : undefined;
}

/** What a resolved dispute paid the seller, by how it ended (docs/decisions.md §6). */
function paidToSeller(d: DisputeSummary, milestoneAmount: number): number {
  if (d.resolution === 'agreement') return d.dispute_amount;
  if (d.resolution === 'verdict') return d.verdict_seller_amount ?? 0;
  if (d.resolution === 'forfeit_buyer') return milestoneAmount;
  return 0;
}

export async function transactionView(actor: Actor, id: string): Promise<View<TransactionView>> {
  const owned = await transactionFor(actor, id);
  if (owned.kind !== 'ok') return passOn(owned);
  const transaction = owned.viewer === 'admin' ? owned.record : withoutIntegrationFields(owned.record);
  const logs: Record<string, MilestoneLog[]> = {};
  const disputes: Record<string, string> = {};
  const settlements: Record<string, number> = {};
  await mapLimit(transaction.milestones, 4, async (m) => {
    const [detail, first] = await Promise.all([owned.api.call('GET /milestones/:id', { param: { id: m.id } }), DISPUTED.has(m.status) ? latestDispute(owned.api, m.id) : undefined]);
    if (detail.ok) logs[m.id] = detail.data.milestone_logs;
    if (first) disputes[m.id] = first.id;
    if (first && m.status === 'DISPUTE_RESOLVED') settlements[m.id] = paidToSeller(first, m.amount);
  });
  let buyerBalance: number | undefined;
  // The buyer's own balance while it has something to fund: the funding dialog says when the wallet is short.
  const funding = transaction.milestones.some((m) => m.allowed_actions.buyer.includes('fund'));
  if (owned.viewer === 'admin' || (owned.viewer === 'buyer' && funding)) {
    const wallet = await owned.api.call('GET /wallets/:user_id', { param: { user_id: transaction.buyer.user_id } });
    if (wallet.ok) buyerBalance = wallet.data.balance;
  }
  return { kind: 'ok', view: { transaction, viewer: owned.viewer, logs, disputes, settlements, ...(buyerBalance === undefined ? {} : { buyerBalance }) } };
}

export const MY_TRANSACTIONS_PAGE_SIZE = 20;

/**
 * A customer's transactions, those waiting for them first and the most pressing of those at the top. The list
 * operation carries no milestones, so each transaction on the page is fetched for its allowed_actions, and each
 * disputed milestone for its dispute's (the API decides whose turn it is, not the browser).
 */
export async function myTransactions(actor: Extract<Actor, { kind: 'customer' }>, page: number): Promise<View<MyTransactionsView>> {
  const api = escrowFor(actor);
  const list = await api.call('GET /transactions', { query: { user_id: actor.escrowUserId, page, limit: MY_TRANSACTIONS_PAGE_SIZE, sort: 'DESC' } });
  if (!list.ok) return list.status === 404 ? { kind: 'not_found' } : { kind: 'error', failure: list };
  const items = await mapLimit(list.data.transactions, 6, async (t): Promise<MyTransactionItem> => {
    const role = t.buyer.user_id === actor.escrowUserId ? 'buyer' : 'seller';
    const page = `/transactions/${t.id}`;
    const detail = await api.call('GET /transactions/:id', { param: { id: t.id } });
    const transaction = withoutIntegrationFields(t);
    if (!detail.ok) return { transaction, role, awaiting: [], dueAt: null, href: page };
    const disputed = detail.data.milestones.filter((m) => m.status === 'IN_DISPUTE');
    const disputes = await Promise.all(disputed.map((m) => latestDispute(api, m.id)));
    const turns = turnsOf(detail.data, disputes.filter((d) => d !== undefined), role);
    const first = firstTurn(turns);
    const current = detail.data.milestones.find((m) => m.id === detail.data.current_milestone_id);
    return {
      transaction,
      role,
      awaiting: [...new Set(turns.map((turn) => turn.action))],
      dueAt: first?.dueAt ?? null,
      href: first?.href ?? page,
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
  return { kind: 'ok', view: { dispute: owned.record, viewer: owned.viewer, transactionId: owned.record.milestone.transaction_id } };
}

/** The customer an admin's customer pages are about: an unknown or malformed id is the page's 404. */
export async function customerForAdmin(actor: ClientActor, userId: string) {
  const user = await escrowFor(actor).call('GET /users/:id', { param: { id: userId } });
  if (!user.ok && (user.status === 404 || user.status === 400)) notFound();
  return user;
}

export async function walletView(actor: ClientActor, userId: string, page = 1): Promise<View<WalletView>> {
  const api = escrowFor(actor);
  const [wallet, history] = await Promise.all([api.call('GET /wallets/:user_id', { param: { user_id: userId } }), api.call('GET /wallets/:user_id/history', { param: { user_id: userId }, query: { page, limit: 20 } })]);
  if (!wallet.ok) return wallet.status === 404 ? { kind: 'not_found' } : { kind: 'error', failure: wallet };
  if (!history.ok) return { kind: 'error', failure: history };
  return { kind: 'ok', view: { wallet: wallet.data, history: history.data } };
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
