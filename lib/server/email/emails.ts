import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { RESENDABLE_EMAIL_STATUSES, type EmailRecord, type ListEmailsQuery } from '@/lib/contracts/emails';
import { invalidState, notFound } from '../app-error';
import type { Db } from '../db/client';
import { pagedList } from '../db/paged-list';
import { emailOutbox, type ClientRow, type EmailOutboxRow } from '../db/schema';
import { isSealed } from '../crypto/secret-box';
import { iso, isoOrNull } from '../records/iso';
import { emailContent } from './render';

/** What the outbox shows of a body stored encrypted: it holds a secret meant for its recipient alone. */
const WITHHELD = 'This email holds a one-time link for its recipient alone: it is stored encrypted and not shown here.';
const shown = (body: string) => (isSealed(body) ? WITHHELD : body);

function emailRecord(row: EmailOutboxRow): EmailRecord {
  const content = emailContent(row);
  return {
    id: row.id,
    kind: row.kind,
    event_id: row.eventId,
    to: { email: row.recipientEmail, name: row.recipientName },
    subject: content.subject,
    text: shown(content.text),
    html: shown(content.html),
    status: row.status,
    attempts: row.attempts,
    last_error: row.lastError,
    next_attempt_at: row.status === 'pending' ? isoOrNull(row.nextAttemptAt) : null,
    sent_at: isoOrNull(row.sentAt),
    created_at: iso(row.createdAt),
  };
}

const emailPage = pagedList(emailOutbox, 'list_emails', 'Email', (q: ListEmailsQuery & { clientId: string }) => eq(emailOutbox.clientId, q.clientId), (q: ListEmailsQuery & { clientId: string }) =>
  q.status ? eq(emailOutbox.status, q.status) : undefined,
  (q: ListEmailsQuery & { clientId: string }) => ({ list: 'emails', scope: q.clientId, filters: { status: q.status } }),
);

/** The client's emails, newest first by default: its own rows only. */
export async function listEmails(db: Db, client: ClientRow, q: ListEmailsQuery) {
  const { rows, pagination } = await emailPage(db, { ...q, clientId: client.id }, q);
  return { emails: rows.map(emailRecord), pagination };
}

/**
 * An admin's explicit "send it again" (docs/decisions.md §15): for an email that failed, whose send was
 * interrupted (unknown: it may have arrived, the admin judges) or that was kept. One waiting or being
 * sent is answered as it stands (asking twice sends it once); one already sent is not sent again. A
 * server without SMTP_URL queues it for when one is set.
 */
export async function resendEmail(db: Db, client: ClientRow, id: string) {
  const [row] = await db.select().from(emailOutbox).where(and(eq(emailOutbox.clientId, client.id), eq(emailOutbox.id, id)));
  if (!row) throw notFound('Email', id);
  if (row.status === 'pending' || row.status === 'sending') return emailRecord(row);
  const [updated] = await db
    .update(emailOutbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lastError: null, updatedAt: new Date() })
    .where(and(eq(emailOutbox.id, id), inArray(emailOutbox.status, [...RESENDABLE_EMAIL_STATUSES])))
    .returning();
  if (!updated) throw invalidState(`This email was ${row.status === 'sent' ? 'sent already' : row.status}: it is not sent again.`);
  return emailRecord(updated);
}
