import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { EventTypeName } from '@/lib/contracts/webhooks';
import type { DbOrTx } from '../db/client';
import { emailOutbox } from '../db/schema';
import type { Write } from '../db/one-statement';
import { PURPOSE, secretBox } from '../crypto/secret-box';
import { env } from '../env';
import { uuidv7 } from '../ids';
import type { FactsOf, TemplatedKind } from './render';
import type { EmailContent } from './templates';

export { dashboardLinkBase } from './render';

export type EmailKind = (typeof emailOutbox.kind.enumValues)[number];
type Party = 'buyer' | 'seller';

/** Without SMTP_URL nothing is sent: the email is kept for admins to read on the Outbox page. */
export function newEmailStatus(): 'pending' | 'kept' {
  return env().SMTP_URL ? 'pending' : 'kept';
}

/**
 * One email to each named customer: `recipients` selects `u` (users) and `a` (their dashboard account,
 * left joined). It records the template (the kind) and its facts, the page to act on only for a customer
 * with an account; the email runner renders it (render.ts). The dedupe key is `key` and the user, so a
 * repeated write adds nothing. `next_attempt_at` is the database's clock: the sender compares with it,
 * whatever a sandbox client's test clock says.
 */
function customerEmailWrite<K extends TemplatedKind>(a: { kind: K; clientId: string; eventId: string | null; key: string; facts: FactsOf[K]; path: string; recipients: SQL; now: Date }): Write {
  const at = a.now.toISOString();
  return sql`insert into email_outbox (id, client_id, event_id, kind, recipient_email, recipient_name, facts, dedupe_key, status, attempts, next_attempt_at, created_at, updated_at)
    select gen_random_uuid(), ${a.clientId}::uuid, ${a.eventId}::uuid, ${a.kind}, u.email, trim(u.first_name || ' ' || u.last_name),
      ${JSON.stringify(a.facts)}::jsonb || jsonb_build_object('path', case when a.id is null then null else ${a.path}::text end),
      ${a.key} || ':' || u.id, ${newEmailStatus()}, 0, now(), ${at}::timestamptz, ${at}::timestamptz
    from ${a.recipients}
    on conflict (dedupe_key) do nothing`;
}

/** The customer on one side of a transaction, as `u` and `a`. */
const partyOf = (transactionId: string, party: Party) =>
  sql`transactions t join parties p on p.id = ${party === 'buyer' ? sql`t.buyer_party_id` : sql`t.seller_party_id`}
    join users u on u.id = p.user_id
    left join dashboard_accounts a on a.client_id = u.client_id and a.escrow_user_id = u.id and a.role = 'customer'
    where t.id = ${transactionId}::uuid`;

const userOf = (userId: string) =>
  sql`users u left join dashboard_accounts a on a.client_id = u.client_id and a.escrow_user_id = u.id and a.role = 'customer' where u.id = ${userId}::uuid`;

const kobo = (naira: unknown) => (typeof naira === 'number' ? Math.round(naira * 100) : 0);
const dateOrNull = (iso: unknown) => (typeof iso === 'string' ? new Date(iso) : null);

type EventData = {
  actor?: string;
  message?: string;
  milestone?: { title: string; amount: number; inspection_end_date: string | null; transaction?: { title: string } };
  dispute?: { id: string; dispute_code: string; dispute_amount: number; intra_party_mediation_end_date: string; milestone?: { title: string } };
  payout?: { user_id: string; amount: number; failure_reason: string | null; bank_account?: { bank_name?: string; account_number?: string } };
};

/**
 * The emails an event causes (docs/decisions.md §15), as writes for the statement that records the event: the
 * buyer's "a delivery awaits your inspection" and "the seller proposed ₦X", both parties' dispute outcome,
 * the payee's payout paid or failed. Other events send nothing.
 */
export function eventEmailWrites(e: { id: string; clientId: string; type: EventTypeName; transactionId?: string; data: unknown; now: Date }): Write[] {
  const d = e.data as EventData;
  const base = { clientId: e.clientId, eventId: e.id, key: `event:${e.id}`, now: e.now };
  // Written before the recipient is known (in the same statement), so it greets no one by name.
  const toParty = <K extends TemplatedKind>(party: Party, kind: K, path: string, facts: FactsOf[K]) =>
    customerEmailWrite({ ...base, kind, path, recipients: partyOf(e.transactionId!, party), facts });
  switch (e.type) {
    case 'milestone.delivered': {
      const m = d.milestone;
      const endsAt = dateOrNull(m?.inspection_end_date);
      if (!m || !endsAt || !e.transactionId) return [];
      return [
        toParty('buyer', 'delivery_awaits_inspection', `/transactions/${e.transactionId}`, {
          milestoneTitle: m.title,
          transactionTitle: m.transaction?.title ?? '',
          amountKobo: kobo(m.amount),
          inspectionEndsAt: endsAt.toISOString(),
        }),
      ];
    }
    case 'dispute.amount_proposed': {
      const dispute = d.dispute;
      if (!dispute || !e.transactionId || d.actor !== 'seller') return [];
      return [
        toParty('buyer', 'amount_proposed', `/disputes/${dispute.id}`, {
          amountKobo: kobo(dispute.dispute_amount),
          milestoneTitle: dispute.milestone?.title ?? '',
          disputeCode: dispute.dispute_code,
          mediationEndsAt: dateOrNull(dispute.intra_party_mediation_end_date)?.toISOString() ?? null,
        }),
      ];
    }
    case 'dispute.resolved': {
      const dispute = d.dispute;
      if (!dispute || !e.transactionId) return [];
      return (['buyer', 'seller'] as const).map((party) =>
        toParty(party, 'dispute_resolved', `/disputes/${dispute.id}`, { disputeCode: dispute.dispute_code, milestoneTitle: dispute.milestone?.title ?? '', outcome: d.message ?? '' }),
      );
    }
    case 'payout.paid':
    case 'payout.failed': {
      const payout = d.payout;
      if (!payout) return [];
      const account = payout.bank_account;
      const bankLine = account?.bank_name && account.account_number ? `${account.bank_name} ••••${account.account_number.slice(-4)}` : null;
      return [
        customerEmailWrite({
          ...base,
          kind: e.type === 'payout.paid' ? 'payout_paid' : 'payout_failed',
          path: '/wallet',
          recipients: userOf(payout.user_id),
          facts: { amountKobo: kobo(payout.amount), bankLine, reason: payout.failure_reason },
        }),
      ];
    }
    default:
      return [];
  }
}

/**
 * One email to one address (an invitation), written now in the caller's database transaction. A body that
 * holds a secret (`sealed`: an invitation's one-time link) is stored encrypted, opened only to be sent.
 */
export async function queueEmail(db: DbOrTx, a: { clientId: string | null; kind: EmailKind; to: { email: string; name: string }; content: EmailContent; dedupeKey: string; sealed?: boolean; now: Date }) {
  const body = (text: string) => (a.sealed ? secretBox().seal(text, PURPOSE.emailBody) : text);
  await db
    .insert(emailOutbox)
    .values({
      id: uuidv7(),
      clientId: a.clientId,
      kind: a.kind,
      recipientEmail: a.to.email,
      recipientName: a.to.name,
      subject: a.content.subject,
      textBody: body(a.content.text),
      htmlBody: body(a.content.html),
      dedupeKey: a.dedupeKey,
      status: newEmailStatus(),
      nextAttemptAt: sql`now()`,
      createdAt: a.now,
      updatedAt: a.now,
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey });
}
