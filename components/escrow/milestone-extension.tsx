'use client';

import { lazy } from 'react';
import { answerExtension } from '@/lib/actions/milestones';
import type { MilestoneInTransaction, Viewer } from '@/lib/contracts/dashboard';
import { FormDialog } from '../ui/form-dialog';
import { ConfirmAction } from './confirm-action';
import { dateTime, day } from './format';

const loadForm = () => import('./milestone-extension-form');
const ExtensionForm = lazy(() => loadForm().then((m) => ({ default: m.ExtensionForm })));

const lagosDay = (at: number) => new Date(at).toLocaleDateString('en-CA', { timeZone: 'Africa/Lagos' });

/**
 * The earliest day an extension may ask for, in Lagos, as a date input's `min`: after the current due date
 * (an extension moves it later) and not in the past (an overdue milestone's new date is from today on).
 */
function dayAfter(iso: string): string {
  const next = lagosDay(new Date(iso).getTime() + 86_400_000);
  const today = lagosDay(Date.now());
  return next > today ? next : today;
}

/**
 * A milestone's due date as the parties move it (docs/decisions.md §13): the seller's pending request and when the
 * buyer's answer is due, the buyer's approve and decline (no money moves either way), and the seller's
 * button to ask, each exactly as the milestone's allowed_actions give this viewer.
 */
export function MilestoneExtension({ milestone: m, viewer, onDone }: { milestone: MilestoneInTransaction; viewer: Viewer; onDone: () => void }) {
  const mine = viewer === 'admin' ? [] : m.allowed_actions[viewer];
  const pending = m.extensions.find((e) => e.status === 'PENDING');
  const answered = [...m.extensions].reverse().find((e) => e.status !== 'PENDING');
  const answerBy = m.deadlines.find((d) => d.name === 'extension_response');
  if (!pending && !answered && !mine.includes('request_extension')) return null;
  const id = { milestone_id: m.id };
  return (
    <div className="mt-4 space-y-2" data-testid="due-date-extension">
      {pending ? (
        <p className="rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-950" role="status">
          {viewer === 'seller' ? 'You' : 'The seller'} asked to move the due date from {day(m.due_date)} to <strong>{day(pending.due_date)}</strong>: “{pending.reason}”.{' '}
          {mine.includes('decline_extension') ? 'Your answer decides.' : 'Waiting for the buyer’s answer.'}
          {answerBy ? ` Without an answer by ${dateTime(answerBy.due_at)} it is declined and the date stands.` : ''}
        </p>
      ) : answered ? (
        <p className="text-sm text-slate-700">
          The last request to move the due date to {day(answered.due_date)} was {answered.status === 'APPROVED' ? 'approved' : 'declined'}
          {answered.answered_at ? ` on ${dateTime(answered.answered_at)}` : ''}.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2" role="group" aria-label={`Due date of ${m.title}`}>
        {pending && mine.includes('approve_extension') ? (
          <ConfirmAction
            label="Approve the new date"
            title="Move the due date?"
            description={`"${m.title}" becomes due ${day(pending.due_date)} instead of ${day(m.due_date)}. No money moves; what is held stays in escrow.`}
            confirmLabel="Approve"
            run={(key) => answerExtension({ ...id, answer: 'approve', idempotency_key: key })}
            onDone={onDone}
          />
        ) : null}
        {pending && mine.includes('decline_extension') ? (
          <ConfirmAction
            label="Decline the new date"
            variant="secondary"
            title="Keep the current due date?"
            description={`"${m.title}" stays due ${day(m.due_date)}. No money moves; once it is past due undelivered you may cancel and get the escrow back.`}
            confirmLabel="Decline"
            run={(key) => answerExtension({ ...id, answer: 'decline', idempotency_key: key })}
            onDone={onDone}
          />
        ) : null}
        {mine.includes('request_extension') ? (
          <FormDialog
            preload={loadForm}
            label="Ask for more time"
            variant="secondary"
            title="Ask the buyer for a later due date"
            description={`It is due ${day(m.due_date)}. The buyer has 3 business days to answer; without an answer the date stands. No money moves.`}
            onDone={onDone}
          >
            {(handlers) => <ExtensionForm milestoneId={m.id} earliestDay={dayAfter(m.due_date)} {...handlers} />}
          </FormDialog>
        ) : null}
      </div>
    </div>
  );
}
