'use client';

import { useState, type FormEvent } from 'react';
import { settlePayoutInSandbox, updateSettings } from '@/lib/actions/payouts';
import type { ClientSettings, PayoutRow, PayoutsView } from '@/lib/contracts/dashboard-payouts';
import { PAYOUT_STATUS } from '../escrow/status-labels';
import { naira } from '../escrow/format';
import { PayoutItem, payoutPolling } from '../escrow/payouts-list';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { cn } from '../ui/cn';
import { ConfirmDialog, Dialog } from '../ui/dialog';
import { fetchJson } from '../ui/fetch-json';
import { TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { PaginationControls } from '../ui/pagination';
import { invalidate, useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { toast } from '../ui/toast';
import { ListFilters, useListFilters } from './list-filters';

/** auto_payout (docs/decisions.md §11), bound to GET/PATCH /v1/settings; asks before it changes how releases are paid. */
export function AutoPayoutSwitch({ initial }: { initial: ClientSettings }) {
  const [on, setOn] = useState(initial.auto_payout);
  const [asking, setAsking] = useState(false);
  const [sending, setSending] = useState(false);
  const [key, renewKey] = useIntentKey();
  async function confirm() {
    setSending(true);
    try {
      const result = await updateSettings({ auto_payout: !on, idempotency_key: key });
      toast.result(result);
      if (result.ok && result.data) {
        setOn(result.data.auto_payout);
        renewKey();
        setAsking(false);
      }
    } catch {
      toast.error('The request did not go through. Check your connection and try again.');
    } finally {
      setSending(false);
    }
  }
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="min-w-0 flex-1">
          <h2 id="auto-payout-label" className="text-lg font-semibold text-slate-900">
            Pay out releases automatically
          </h2>
          <p id="auto-payout-hint" className="mt-0.5 text-sm text-slate-600">
            When on, money released to a seller with a saved bank account is sent to that account at once. When off, it stays in the seller’s wallet until they
            withdraw it.
          </p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby="auto-payout-label"
          aria-describedby="auto-payout-hint"
          onClick={() => setAsking(true)}
          className={cn(
            'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700',
            on ? 'bg-emerald-700' : 'bg-slate-400',
          )}
          data-testid="auto-payout-switch"
        >
          <span aria-hidden className={cn('inline-block h-5 w-5 rounded-full bg-white shadow transition-transform', on ? 'translate-x-6' : 'translate-x-1')} />
        </button>
      </div>
      <p className="mt-2 text-sm font-medium text-slate-800" data-testid="auto-payout-state">
        {on ? 'On: releases are paid out automatically.' : 'Off: releases stay in the wallets.'}
      </p>
      <ConfirmDialog
        open={asking}
        sending={sending}
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        title={on ? 'Stop paying out releases automatically?' : 'Pay out releases automatically?'}
        description={
          on
            ? 'From now on, money released to sellers stays in their wallets until they withdraw it. Payouts already on their way continue.'
            : 'From now on, every release to a seller who has a saved bank account is sent straight to that account, for every transaction of your marketplace.'
        }
        confirmLabel={on ? 'Turn off' : 'Turn on'}
      />
    </Card>
  );
}

type Outcome = 'fail' | 'reverse';

/** Sandbox: a payout on its way made to fail, or a paid one returned by the bank, with the reason the customer will read. */
function SandboxOutcome({ payout, outcome }: { payout: PayoutRow; outcome: Outcome }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);
  const [key, renewKey] = useIntentKey();
  const fail = outcome === 'fail';
  async function submit(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    try {
      const result = await settlePayoutInSandbox({ payout_id: payout.id, outcome, ...(reason.trim() ? { reason: reason.trim() } : {}), idempotency_key: key });
      toast.result(result);
      if (result.ok) {
        renewKey();
        setReason('');
        setOpen(false);
        void invalidate(['payouts']);
        void invalidate(['wallet']);
      }
    } catch {
      toast.error('The request did not go through. Check your connection and try again.');
    } finally {
      setSending(false);
    }
  }
  const who = payout.customer ?? 'the customer';
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`${fail ? 'Make it fail' : 'Reverse'}: ${naira(payout.amount)} to ${payout.bank_account.account_name}`}>
        {fail ? 'Make it fail' : 'Reverse'}
      </Button>
      <Dialog
        open={open}
        onClose={() => !sending && setOpen(false)}
        title={fail ? 'Make this payout fail?' : 'Reverse this payout?'}
        description={`Sandbox: ${naira(payout.amount)} to ${payout.bank_account.account_name} goes back into ${who}’s wallet${fail ? ' instead of reaching the bank' : ', as if the bank had returned it'}.`}
      >
        <form onSubmit={submit} className="space-y-4" aria-label={fail ? 'Make the payout fail' : 'Reverse the payout'}>
          <TextField
            label="Reason (optional)"
            name="reason"
            value={reason}
            maxLength={200}
            onChange={(e) => setReason(e.target.value)}
            hint={fail ? 'The customer sees it, e.g. “The account is dormant”.' : 'The customer sees it, e.g. “The account was closed”.'}
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={sending}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={sending}>
              {fail ? 'Fail payout' : 'Reverse payout'}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

/** Every payout of the marketplace, newest first, by status and customer; the sandbox's helpers in test mode. */
export function PayoutsAdmin({ initial, testMode }: { initial: PayoutsView; testMode: boolean }) {
  const filters = useListFilters();
  const { setPage, filtered } = filters;
  const query = useLiveQuery({
    queryKey: ['payouts', 'all', filters.query],
    queryFn: () => fetchJson<PayoutsView>(`/data/payouts?${filters.query}`),
    initialData: filters.asServed ? initial : undefined,
    keepPrevious: true,
    refetchInterval: payoutPolling,
  });
  return (
    <Card>
      <CardHeader title="All payouts" description={testMode ? 'Sandbox: a payout on its way is paid a minute after it starts, on your test clock.' : undefined} />
      <ListFilters
        label="Filter payouts"
        filters={filters}
        searchLabel="Search payouts"
        searchPlaceholder="Reference, account name or number"
        statuses={PAYOUT_STATUS}
        customers
        amounts
        csvHref="/data/payouts/csv"
      />
      {query.isPending ? (
        <LoadingState label="Loading payouts…" />
      ) : query.isError ? (
        <ErrorState message={query.error.message} retry={() => void query.refetch()} />
      ) : query.data.payouts.length === 0 ? (
        <EmptyState title={filtered ? 'No payout matches these filters' : 'No payouts yet'} />
      ) : (
        <>
          <ul aria-label="Payouts">
            {query.data.payouts.map((p) => (
              <PayoutItem
                key={p.id}
                payout={p}
                customerHref={`/admin/customers/${p.user_id}`}
                actions={
                  testMode && (p.status === 'PENDING' || p.status === 'PROCESSING') ? (
                    <SandboxOutcome payout={p} outcome="fail" />
                  ) : testMode && p.status === 'PAID' ? (
                    <SandboxOutcome payout={p} outcome="reverse" />
                  ) : undefined
                }
              />
            ))}
          </ul>
          <PaginationControls
            page={query.data.pagination.currentPage}
            pageCount={query.data.pagination.pageCount}
            total={query.data.pagination.total}
            onPage={setPage}
            label="payouts"
          />
        </>
      )}
    </Card>
  );
}
