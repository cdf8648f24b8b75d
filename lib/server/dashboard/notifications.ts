import 'server-only';
import { eq } from 'drizzle-orm';
import type { EventItem, Notification, NotificationsView } from '@/lib/contracts/dashboard-disputes';
import { formatLagosDateTime } from '@/lib/escrow/business-days';
import { formatNaira } from '@/lib/escrow/money';
import { getDb } from '../db/client';
import { dashboardAccounts } from '../db/schema';
import { escrowFor, type ApiFailure } from '../escrow-client';
import { findAccount } from './accounts';
import type { Actor, ClientActor } from './actor';

type Role = 'buyer' | 'seller' | 'admin';
type Result<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

/** How many of the client's latest events the bell looks through, and how many lines it shows. */
const SCAN = 100;
const SHOWN = 20;

const naira = (amount: unknown) => (typeof amount === 'number' ? formatNaira(Math.round(amount * 100)) : 'an amount');

type Parties = { buyer_user_id?: string; seller_user_id?: string };

/** The buyer's and seller's user ids an event's own record carries: a transaction's, a milestone's transaction's, a dispute's. */
function partiesOf(event: EventItem): Parties | undefined {
  const d = event.data as { transaction?: Parties; milestone?: { transaction?: Parties }; dispute?: Parties };
  return d.transaction ?? d.milestone?.transaction ?? d.dispute;
}

/**
 * The side this customer is on in each transaction the events name, read from the events' own records; a deadline's
 * or a checkout's event, which carries none, takes its side from another event of its transaction.
 */
function rolesOf(userId: string, events: EventItem[]): Map<string, Role> {
  const roles = new Map<string, Role>();
  for (const event of events) {
    const parties = partiesOf(event);
    if (!event.transaction_id || !parties || roles.has(event.transaction_id)) continue;
    if (parties.buyer_user_id === userId) roles.set(event.transaction_id, 'buyer');
    else if (parties.seller_user_id === userId) roles.set(event.transaction_id, 'seller');
  }
  return roles;
}

/** Whom an event concerns for this person, or null when it is none of their business. */
function roleFor(actor: Actor, roles: Map<string, Role>, event: EventItem): Role | null {
  if (actor.kind === 'admin') return 'admin';
  if (actor.kind !== 'customer') return null;
  if (event.transaction_id) return roles.get(event.transaction_id) ?? null;
  if (event.type === 'wallet.funded') {
    const wallet = event.data.wallet as { user_id?: string } | undefined;
    return wallet?.user_id === actor.escrowUserId ? 'buyer' : null;
  }
  if (event.type.startsWith('payout.')) {
    const payout = event.data.payout as { user_id?: string } | undefined;
    return payout?.user_id === actor.escrowUserId ? 'seller' : null;
  }
  return null;
}

function who(actorName: unknown, viewer: Role): string {
  if (actorName === viewer) return 'You';
  if (actorName === 'buyer') return 'The buyer';
  if (actorName === 'seller') return 'The seller';
  if (actorName === 'client') return 'The marketplace';
  if (actorName === 'dispute_team') return 'The dispute team';
  return 'The service';
}

type EventData = {
  actor?: string;
  automatic?: boolean;
  amount?: number;
  milestone?: { title?: string };
  transaction?: { title?: string };
  dispute?: { dispute_code?: string; dispute_amount?: number };
  payout?: { amount?: number; failure_reason?: string | null; bank_account?: { bank_name?: string; account_number?: string } };
  checkout?: { amount?: number; applied?: boolean | null; failure_reason?: string | null };
};

/** "₦9,900.00 to GTBank ••••3228" */
function payoutLine(d: EventData): string {
  const account = d.payout?.bank_account;
  const to = account?.bank_name && account.account_number ? ` to ${account.bank_name} ••••${account.account_number.slice(-4)}` : '';
  return `${naira(d.payout?.amount)}${to}`;
}

/** One line a person can read: what happened, from their side. */
export function describe(event: EventItem, viewer: Role): string {
  const d = event.data as EventData;
  const milestone = d.milestone?.title ? `“${d.milestone.title}”` : 'a milestone';
  const code = d.dispute?.dispute_code ? `dispute ${d.dispute.dispute_code}` : 'the dispute';
  const by = who(d.actor, viewer);
  const auto = d.automatic === true;
  switch (event.type) {
    case 'transaction.created':
      return `New transaction “${d.transaction?.title ?? ''}”`;
    case 'transaction.cancellation_requested':
      return `${by} asked to cancel “${d.transaction?.title ?? ''}”`;
    case 'transaction.cancellation_declined':
      return `${by} declined to cancel “${d.transaction?.title ?? ''}”`;
    case 'transaction.canceled':
      return `“${d.transaction?.title ?? ''}” was canceled; the money held went back to the buyer`;
    case 'transaction.rated':
      return `${by} rated “${d.transaction?.title ?? ''}”`;
    case 'transaction.terminated':
      return `${by} ended “${d.transaction?.title ?? ''}” after the dispute; the money held went back to the buyer`;
    case 'wallet.funded':
      return `Wallet funded with ${naira(d.amount)}`;
    case 'milestone.funded':
      return `${by} funded ${milestone}`;
    case 'milestone.delivered':
      return `${by} delivered ${milestone}`;
    case 'milestone.delivery_accepted':
      return auto ? `The inspection period ended: ${milestone} was accepted automatically` : `${by} accepted the delivery of ${milestone}`;
    case 'milestone.delivery_rejected':
      return `${by} rejected the delivery of ${milestone}`;
    case 'milestone.return_approved':
      return auto ? `The return window ended: the return of ${milestone} was approved automatically` : `${by} approved the return of ${milestone}`;
    case 'milestone.return_rejected':
      return `${by} rejected the return of ${milestone}`;
    case 'milestone.extension_requested':
      return `${by} asked to move the due date of ${milestone}`;
    case 'milestone.extension_approved':
      return `${by} agreed to move the due date of ${milestone}`;
    case 'milestone.extension_declined':
      return auto ? `The request to move the due date of ${milestone} went unanswered and was declined` : `${by} declined to move the due date of ${milestone}`;
    case 'milestone.refunded':
      return `${by} refunded part of ${milestone}`;
    case 'milestone.partial_acceptance_proposed':
      return `${by} proposed to accept part of ${milestone}`;
    case 'milestone.partial_acceptance_accepted':
      return auto ? `The partial acceptance of ${milestone} went unanswered and was accepted` : `${by} accepted the partial acceptance of ${milestone}`;
    case 'milestone.partial_acceptance_declined':
      return `${by} declined the partial acceptance of ${milestone}`;
    case 'dispute.created':
      return auto ? `Nobody opened a dispute over the rejected return in time: the service opened ${code}` : `${by} opened ${code}`;
    case 'dispute.amount_proposed':
      return `${d.actor === 'seller' && viewer !== 'seller' ? 'Seller' : by} proposed ${naira(d.dispute?.dispute_amount)}`;
    case 'dispute.amount_rejected':
      return `${by} rejected the proposed ${naira(d.dispute?.dispute_amount)}`;
    case 'dispute.counter_offered':
      return `${by} offered ${naira((d.dispute as { counter_offer_amount?: number } | undefined)?.counter_offer_amount)} to settle ${code}`;
    case 'dispute.escalated':
      return auto ? `Mediation ended: ${code} was escalated automatically` : `${by} escalated ${code}`;
    case 'dispute.evidence_submitted':
      return `${by} submitted evidence in ${code}`;
    case 'dispute.evidence_extended':
      return `${by} extended the evidence window of ${code}`;
    case 'dispute.resolved':
      return `${code.charAt(0).toUpperCase()}${code.slice(1)} was resolved`;
    case 'dispute.arbitration_declined':
      return `${code.charAt(0).toUpperCase()}${code.slice(1)} closed: arbitration was declined`;
    case 'dispute.canceled':
      return `${by} withdrew ${code}`;
    case 'payout.created':
      return auto ? `A payout of ${payoutLine(d)} started automatically` : `A payout of ${payoutLine(d)} started`;
    case 'payout.paid':
      return `Payout of ${payoutLine(d)} paid`;
    case 'payout.failed':
      return `Payout of ${payoutLine(d)} failed${d.payout?.failure_reason ? `: ${d.payout.failure_reason}` : ''}. The money is back in the wallet`;
    case 'payout.reversed':
      return `Payout of ${payoutLine(d)} was returned by the bank. The money is back in the wallet`;
    case 'checkout.paid':
      return `Card payment of ${naira(d.checkout?.amount)} received${d.checkout?.applied === false ? '; it is in the wallet' : ''}`;
    case 'checkout.failed':
      return `Card payment of ${naira(d.checkout?.amount)} failed${d.checkout?.failure_reason ? `: ${d.checkout.failure_reason}` : ''}`;
    case 'checkout.expired':
      return `Card payment of ${naira(d.checkout?.amount)} expired unpaid`;
    case 'deadline.approaching':
      return `${deadlineLabel(event.data)} ends ${deadlineDue(event.data)}`;
    case 'deadline.lapsed':
      return `${deadlineLabel(event.data)} ended ${deadlineDue(event.data)}`;
    case 'webhook.test':
      return 'A webhook test event was sent';
  }
}

/** What a deadline event's `name` means to a person (docs/webhooks.md lists them). */
const DEADLINE_LABELS: Record<string, string> = {
  inspection: 'The inspection period',
  partial_acceptance_response: 'The time to answer the partial acceptance',
  return_response: 'The time to answer the return',
  extension_response: 'The time to answer the due-date extension',
  dispute_opening: 'The time to open a dispute over the rejected return',
  intra_party_mediation: 'Mediation',
  evidence_submission: 'Evidence submission',
  declined_refund: "The dispute team's time to decide",
  cancellation_response: 'The time to answer the cancellation request',
  checkout_expiry: 'The card payment',
};
const deadlineLabel = (data: Record<string, unknown>) => DEADLINE_LABELS[String(data.name)] ?? 'A deadline';
const deadlineDue = (data: Record<string, unknown>) => (typeof data.due_at === 'string' ? `on ${formatLagosDateTime(new Date(data.due_at))}` : 'soon');

function linkOf(event: EventItem, viewer: Role): string | null {
  if (event.dispute_id) return `/disputes/${event.dispute_id}`;
  if (event.transaction_id) return `/transactions/${event.transaction_id}`;
  if (event.type === 'wallet.funded' && viewer !== 'admin') return '/wallet';
  if (event.type.startsWith('payout.')) return viewer === 'admin' ? '/admin/payouts' : '/wallet';
  return null;
}

/**
 * The bell, from one read of the client's latest events: those concerning this person (a customer: the transactions
 * it is the buyer or seller of, its wallet and payouts; an admin: all), unread when listed before the account's read
 * position, which the list orders as the API's `after` does.
 */
export async function notificationsView(actor: Actor): Promise<Result<NotificationsView>> {
  if (!('clientId' in actor)) return { ok: true, value: { items: [], unread: 0, newest: null } };
  const [recent, account] = await Promise.all([escrowFor(actor).call('GET /events', { query: { sort: 'DESC', limit: SCAN } }), getDb().then((db) => findAccount(db, actor.accountId))]);
  if (!recent.ok) return { ok: false, failure: recent };
  const events = recent.data.events;
  const roles = actor.kind === 'customer' ? rolesOf(actor.escrowUserId, events) : new Map<string, Role>();
  // A read position older than the events read, or one the API no longer knows, reads as "never opened".
  const readAt = account?.notificationsReadThrough ? events.findIndex((e) => e.id === account.notificationsReadThrough) : -1;
  const unreadBefore = readAt === -1 ? events.length : readAt;
  const lines = events.flatMap((event, index) => {
    const viewer = roleFor(actor, roles, event);
    return viewer ? [{ event, viewer, unread: index < unreadBefore }] : [];
  });
  const items: Notification[] = lines.slice(0, SHOWN).map(({ event, viewer, unread }) => ({
    id: event.id,
    text: describe(event, viewer),
    href: linkOf(event, viewer),
    at: event.created_at,
    unread,
  }));
  return { ok: true, value: { items, unread: lines.filter((l) => l.unread).length, newest: events[0]?.id ?? null } };
}

/** Moves the account's read position to `through`, an event of this client (the API says so, or 404s). */
export async function markNotificationsRead(actor: ClientActor, through: string): Promise<boolean> {
  const check = await escrowFor(actor).call('GET /events', { query: { after: through, limit: 1 } });
  if (!check.ok) return false;
  await (await getDb()).update(dashboardAccounts).set({ notificationsReadThrough: through, updatedAt: new Date() }).where(eq(dashboardAccounts.id, actor.accountId));
  return true;
}

/**
 * "Mark all read": the read position moves to the client's newest event, found here rather than taken
 * from the screen, so everything recorded so far is read, shown in the bell or not.
 */
export async function markAllNotificationsRead(actor: ClientActor): Promise<boolean> {
  const newest = await escrowFor(actor).call('GET /events', { query: { sort: 'DESC', limit: 1 } });
  if (!newest.ok) return false;
  const through = newest.data.events[0]?.id;
  if (!through) return true;
  await (await getDb()).update(dashboardAccounts).set({ notificationsReadThrough: through, updatedAt: new Date() }).where(eq(dashboardAccounts.id, actor.accountId));
  return true;
}
