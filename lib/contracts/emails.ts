/** The email outbox (docs/decisions.md §15): the query of GET /v1/emails and the records it answers with. */
import { z } from 'zod';
import { AfterParam, Id, NullableTimestamp, Pagination, SortParam, Timestamp, unlessMissing, OptionalLimit, OptionalPage } from './common';
import { EMAIL_STATUSES } from './dashboard-plain';

export { EMAIL_STATUSES, RESENDABLE_EMAIL_STATUSES } from './dashboard-plain';
export const EMAIL_KINDS = ['invitation', 'delivery_awaits_inspection', 'amount_proposed', 'deadline_reminder', 'payout_paid', 'payout_failed', 'dispute_resolved'] as const;

export const ListEmailsQuery = z.object({
  status: z.enum(EMAIL_STATUSES, { error: unlessMissing(`must be one of ${EMAIL_STATUSES.join(', ')}`) }).optional(),
  after: AfterParam,
  page: OptionalPage,
  limit: OptionalLimit,
  sort: SortParam.optional().default('DESC').meta({ description: 'DESC (newest first, the default) or ASC' }),
});
export type ListEmailsQuery = z.infer<typeof ListEmailsQuery>;

export const EmailRecord = z
  .object({
    id: Id,
    kind: z.enum(EMAIL_KINDS),
    event_id: Id.nullable().meta({ description: 'the event that caused it; null for invitations and deadline reminders' }),
    to: z.object({ email: z.string(), name: z.string() }).strict(),
    subject: z.string(),
    text: z.string().meta({ description: 'the plain-text body' }),
    html: z.string().meta({ description: 'the HTML body' }),
    status: z.enum(EMAIL_STATUSES).meta({
      description:
        'pending (waiting to be sent or retried), sending, sent, failed (gave up, see last_error), unknown (the server stopped mid-send: it may or may not have arrived; never sent again unless resent), kept (no SMTP_URL on the server: only shown here)',
    }),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    next_attempt_at: NullableTimestamp.meta({ description: 'while pending: when it is tried (again)' }),
    sent_at: NullableTimestamp,
    created_at: Timestamp,
  })
  .strict();
export const EmailListRecord = z.object({ emails: z.array(EmailRecord), pagination: Pagination }).strict();

export type EmailRecord = z.infer<typeof EmailRecord>;
