import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import { sql } from 'drizzle-orm';
import { jitteredBackoffMs } from '@/lib/escrow/retry-schedule';
import { PURPOSE, secretBox } from '../crypto/secret-box';
import type { Db } from '../db/client';
import { queryRows } from '../db/rows';
import type { PolledRunner } from '../background-poller';
import { watchClientChanges } from '../client-cache';
import { env } from '../env';
import type { EmailKind } from './outbox';
import { writeDueReminders } from './reminders';
import { emailContent } from './render';
import { log } from '../logger';

/**
 * The email runner (docs/decisions.md §15): writes due deadline reminders, then sends what the outbox holds over
 * SMTP. At most once: each email is claimed as `sending` in its own committed statement before the SMTP
 * conversation starts, so a process that dies mid-send leaves it `sending`; once its lease has run out it
 * is marked `unknown` (it may or may not have gone out) and only an admin's Resend sends it again.
 */

/** Attempts before an email that keeps failing is given up as `failed`. */
export const MAX_EMAIL_ATTEMPTS = 6;
const BATCH = 20;
/** Every SMTP step is bounded, so a send always ends well within its lease (ESCROW_EMAIL_LEASE_MS, 5 minutes by default). */
const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 };

type Claimed = {
  id: string;
  attempts: number;
  recipient_email: string;
  recipient_name: string;
  kind: EmailKind;
  facts: Record<string, unknown> | null;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
};

const holder = globalThis as typeof globalThis & { __escrowMailer?: { url: string; transport: Transporter } };

function transport(url: string): Transporter {
  if (holder.__escrowMailer?.url !== url) holder.__escrowMailer = { url, transport: nodemailer.createTransport({ url, ...SMTP_TIMEOUTS }) };
  return holder.__escrowMailer.transport;
}

/** Emails whose sender's lease ran out while `sending`: the process died mid-send, and nobody knows whether it arrived. */
export async function markInterruptedSends(db: Db): Promise<number> {
  const rows = await queryRows(
    db,
    sql`update email_outbox set status = 'unknown', next_attempt_at = null, updated_at = now(),
        last_error = 'The server stopped while sending this email: it may or may not have arrived. Resend it if it did not.'
      where status = 'sending' and next_attempt_at <= now() returning id`,
  );
  return rows.length;
}

/** Claims due emails and commits the claim (one statement, outside any transaction) before anything is sent. */
async function claimDueEmails(db: Db, leaseMs: number): Promise<Claimed[]> {
  return queryRows<Claimed>(
    db,
    sql`update email_outbox set status = 'sending', attempts = attempts + 1, last_attempt_at = now(),
        next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
      where id in (select id from email_outbox where status = 'pending' and next_attempt_at <= now() order by next_attempt_at limit ${BATCH} for update skip locked)
      returning id, attempts, recipient_email, recipient_name, kind, facts, subject, text_body, html_body`,
  );
}

/** An SMTP failure as stored and shown to admins: the server's reply or the error's message, without the URL's credentials. */
function failureText(error: unknown, smtpUrl: string): string {
  const e = error as { response?: string; message?: string };
  let text = String(e.response ?? e.message ?? error);
  const password = (() => {
    try {
      return decodeURIComponent(new URL(smtpUrl).password);
    } catch {
      return '';
    }
  })();
  if (password) text = text.split(password).join('[secret]');
  return text.slice(0, 500);
}

/**
 * A connection that dropped or went silent with no SMTP reply may have done so after the server took the
 * message: trying again could send it twice, so it is `unknown` like a crash. Failing to connect or to
 * get a greeting sent nothing.
 */
const mayHaveArrived = (error: unknown) => {
  const e = error as { code?: string; responseCode?: number; message?: string };
  if (e.responseCode !== undefined || !(e.code === 'ETIMEDOUT' || e.code === 'ECONNECTION')) return false;
  return !/^(Connection timeout|Greeting never received)/.test(e.message ?? '');
};

/** 5xx: the SMTP server refused for good (no such mailbox); anything else may pass on a later try. */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

async function sendOne(db: Db, email: Claimed, settings: { smtpUrl: string; from: string; retryBaseMs: number }): Promise<void> {
  try {
    // Rendered now, from what the write recorded; an invitation's stored words are opened only to be sent.
    const content = emailContent({ kind: email.kind, facts: email.facts, subject: email.subject, textBody: email.text_body, htmlBody: email.html_body });
    const info = await transport(settings.smtpUrl).sendMail({
      from: settings.from,
      to: { name: email.recipient_name, address: email.recipient_email },
      subject: content.subject,
      text: secretBox().open(content.text, PURPOSE.emailBody),
      html: secretBox().open(content.html, PURPOSE.emailBody),
    });
    // From `unknown` too: a send slower than its lease still went out.
    await db.execute(sql`update email_outbox set status = 'sent', sent_at = now(), smtp_message_id = ${info.messageId ?? null}, last_error = null,
      next_attempt_at = null, updated_at = now() where id = ${email.id}::uuid and status in ('sending', 'unknown')`);
  } catch (error) {
    const lastError = failureText(error, settings.smtpUrl);
    if (mayHaveArrived(error)) {
      await db.execute(sql`update email_outbox set status = 'unknown', last_error = ${`The connection ended without a reply, so this email may or may not have arrived (${lastError}). Resend it if it did not.`},
        next_attempt_at = null, updated_at = now() where id = ${email.id}::uuid and status in ('sending', 'unknown')`);
      return;
    }
    if (isPermanent(error) || email.attempts >= MAX_EMAIL_ATTEMPTS) {
      await db.execute(sql`update email_outbox set status = 'failed', last_error = ${lastError}, next_attempt_at = null, updated_at = now()
        where id = ${email.id}::uuid and status in ('sending', 'unknown')`);
      return;
    }
    const waitMs = jitteredBackoffMs(email.attempts, Math.random(), { baseMs: settings.retryBaseMs });
    await db.execute(sql`update email_outbox set status = 'pending', last_error = ${lastError}, next_attempt_at = now() + ${waitMs} * interval '1 millisecond', updated_at = now()
      where id = ${email.id}::uuid and status in ('sending', 'unknown')`);
  }
}

/** One pass: reminders due (unless told not to look), interrupted sends marked, then due emails sent (only with SMTP_URL set). */
export async function runEmailPass(db: Db, wallNow: Date, opts: { reminders?: boolean } = {}): Promise<{ reminders: number; interrupted: number; sent: number }> {
  const settings = env();
  const reminders = opts.reminders === false ? 0 : await writeDueReminders(db, wallNow);
  const interrupted = await markInterruptedSends(db);
  if (!settings.SMTP_URL) return { reminders, interrupted, sent: 0 };
  const claimed = await claimDueEmails(db, settings.ESCROW_EMAIL_LEASE_MS);
  const smtp = { smtpUrl: settings.SMTP_URL, from: settings.ESCROW_EMAIL_FROM, retryBaseMs: settings.ESCROW_EMAIL_RETRY_BASE_MS };
  await Promise.all(claimed.map((email) => sendOne(db, email, smtp)));
  return { reminders, interrupted, sent: claimed.length };
}

/**
 * How often the runner looks for reminders to write while no client changes. A reminder comes a day
 * ahead, so a minute late is on time; the look is the heaviest statement the runner sends (one branch
 * per deadline, each joined to the parties and their emails), and every second it held PGlite's one
 * thread, requests included, for tens of milliseconds.
 */
const REMINDER_LOOK_MS = 60_000;

/** When the next look for reminders is due: 0 is at the next poll. */
let nextReminderLook = 0;

/**
 * Runs the email pass in the background of this server process: emails every poll, reminders every
 * REMINDER_LOOK_MS, and at the next poll after a client changes (a sandbox client's test clock moved
 * its deadlines a day closer in one go: its reminders come as promptly as the lapses it settles).
 */
export const emailRunner: PolledRunner = {
  name: 'email runner',
  intervalMs: (settings) => settings.ESCROW_EMAIL_POLL_MS,
  setUp: () => watchClientChanges(() => (nextReminderLook = 0)),
  runOnce: async ({ db }) => {
    const now = Date.now();
    const lookForReminders = now >= nextReminderLook;
    if (lookForReminders) nextReminderLook = now + REMINDER_LOOK_MS;
    const pass = await runEmailPass(db, new Date(now), { reminders: lookForReminders }).catch((error: unknown) => {
      // A look that failed is due again at the next poll.
      if (lookForReminders) nextReminderLook = 0;
      throw error;
    });
    if (pass.interrupted > 0) log.warn({ msg: 'emails interrupted mid-send marked unknown', count: pass.interrupted });
  },
};
