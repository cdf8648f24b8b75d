import 'server-only';
import { EmailListRecord, EmailRecord, ListEmailsQuery } from '@/lib/contracts/emails';
import { listEmails, resendEmail } from '@/lib/server/email/emails';
import { BASE_ERRORS, operation, pathIds } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const listEmailsOp = operation({
  method: 'get', path: '/emails', operationId: 'listEmails', tag: 'Emails', auth: 'client',
  summary: "The email outbox: what was sent to your customers, newest first",
  description:
    'Every email the service writes for your customers (delivery awaiting inspection, the seller\'s proposed amount, deadline reminders, payouts, dispute outcomes, invitations) with its text and HTML body and its sending status. Without SMTP_URL on the server every email is kept here, unsent.',
  request: { query: ListEmailsQuery },
  response: EmailListRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND'],
});

const resendEmailOp = operation({
  method: 'post', path: '/emails/{id}/resend', operationId: 'resendEmail', tag: 'Emails', auth: 'client',
  summary: 'Send an email again',
  description:
    'For an email that failed, whose send was interrupted (unknown: it may have arrived already, so it is never resent automatically) or that was kept: it is queued to be sent now (on a server without SMTP_URL, once one is set). One already waiting or being sent is answered as it stands; one sent is 409.',
  request: { params: pathIds({ id: 'email_id' }) },
  response: EmailRecord,
  errors: [...BASE_ERRORS, 'VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE'],
});

export const emailRoutes = router()
  .openapi(listEmailsOp, async (c) => ok('Emails retrieved successfully', await listEmails(c.var.db, c.var.client, c.req.valid('query'))))
  .openapi(resendEmailOp, async (c) => ok('Email queued to be sent again', await resendEmail(c.var.db, c.var.client, c.req.valid('param').id)));
