'use client';

import { useRouter } from 'next/navigation';
import { resendEmail } from '@/lib/actions/emails';
import type { Pagination } from '@/lib/contracts/common';
import { RESENDABLE_EMAIL_STATUSES } from '@/lib/contracts/dashboard-plain';
import type { EmailRecord } from '@/lib/contracts/emails';
import { ConfirmAction } from '../escrow/confirm-action';
import { dateTime } from '../escrow/format';
import { Badge, type BadgeTone } from '../ui/badge';
import { Card } from '../ui/card';
import { PaginationControls } from '../ui/pagination';
import { EmptyState } from '../ui/states';

const STATUS_TONE: Record<EmailRecord['status'], BadgeTone> = { pending: 'amber', sending: 'blue', sent: 'green', failed: 'red', unknown: 'violet', kept: 'grey' };
const resendable = (status: EmailRecord['status']) => (RESENDABLE_EMAIL_STATUSES as readonly string[]).includes(status);

export function OutboxList({ emails, pagination }: { emails: EmailRecord[]; pagination: Pagination }) {
  const router = useRouter();
  return (
    <Card>
      {emails.length === 0 ? (
        <EmptyState title="No emails yet">Deliveries to inspect, proposed amounts, reminders, payouts and dispute outcomes are emailed to your customers and listed here.</EmptyState>
      ) : (
        <ul className="divide-y" aria-label="Emails">
          {emails.map((email) => (
            <li key={email.id} className="py-3" data-testid="email-row" data-email-id={email.id}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0 flex-1">
                  <p className="break-words font-medium text-slate-900">{email.subject}</p>
                  <p className="text-sm text-slate-600 [overflow-wrap:anywhere]">
                    To {email.to.name ? `${email.to.name} <${email.to.email}>` : email.to.email} · {dateTime(email.sent_at ?? email.created_at)}
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  <Badge tone={STATUS_TONE[email.status]}>{email.status}</Badge>
                  {resendable(email.status) ? (
                    <ConfirmAction
                      label="Resend"
                      size="sm"
                      variant="secondary"
                      accessibleLabel={`Resend “${email.subject}”`}
                      title="Send this email again?"
                      description={
                        email.status === 'unknown'
                          ? 'Its first send was interrupted, so it may have arrived already: resend only if the customer did not get it.'
                          : `It is sent to ${email.to.email} now.`
                      }
                      confirmLabel="Resend now"
                      run={(key) => resendEmail({ email_id: email.id, idempotency_key: key })}
                      onDone={() => router.refresh()}
                    />
                  ) : null}
                </div>
              </div>
              {email.last_error ? <p className="mt-1 break-words text-sm text-rose-700">{email.last_error}</p> : null}
              <details className="mt-2">
                <summary className="cursor-pointer text-sm text-slate-700">Read the email</summary>
                <pre className="mt-2 whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 font-sans text-sm text-slate-800">{email.text}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
      <PaginationControls page={pagination.page} pageCount={pagination.pageCount} total={pagination.total} onPage={(page) => router.push(`/admin/outbox?page=${page}`)} label="emails" />
    </Card>
  );
}
