import Link from 'next/link';
import type { Checkout, CheckoutsView } from '@/lib/contracts/dashboard-statements';
import { InlineIntegrationDetails } from '../escrow/integration-details';
import { dateTime, naira } from '../escrow/format';
import { StatusBadge } from '../escrow/status-badge';
import { Card, CardHeader } from '../ui/card';
import { EmptyState } from '../ui/states';
import { Table } from '../ui/table';

/** When the checkout ended, by how it ended; nothing while it waits. */
function ended(c: Checkout): string {
  if (c.paid_at) return `Paid ${dateTime(c.paid_at)}`;
  if (c.failed_at) return `Declined ${dateTime(c.failed_at)}`;
  if (c.expired_at) return `Expired ${dateTime(c.expired_at)}`;
  return c.status === 'EXPIRED' ? `Expired ${dateTime(c.expires_at)}` : `Open until ${dateTime(c.expires_at)}`;
}

/** Whether a paid checkout did what it was for (funded its milestone); the money is in the wallet either way. */
function applied(c: Checkout): string {
  if (c.applied === null) return '—';
  if (c.applied) return c.purpose === 'wallet' ? 'Yes: in the wallet' : 'Yes: milestone funded';
  return `No: ${c.not_applied_reason ?? 'kept in the wallet'}`;
}

function Purpose({ checkout }: { checkout: Checkout }) {
  if (checkout.purpose === 'wallet') return <>Wallet top-up</>;
  return checkout.transaction_id ? (
    <Link href={`/transactions/${checkout.transaction_id}`} className="text-emerald-800 underline-offset-2 hover:underline">
      Milestone funding
    </Link>
  ) : (
    <>Milestone funding</>
  );
}

/** A customer's card payments (docs/decisions.md §16), newest first, as the admin of its client sees them. */
export function CustomerCheckouts({ view }: { view: CheckoutsView }) {
  return (
    <Card aria-labelledby="checkouts-heading">
      <CardHeader
        title={<span id="checkouts-heading">Card payments</span>}
        description={view.pagination.total > view.checkouts.length ? `The newest ${view.checkouts.length} of ${view.pagination.total}.` : 'Checkouts this customer started, newest first.'}
      />
      {view.checkouts.length === 0 ? (
        <EmptyState title="No card payments yet" />
      ) : (
        <Table
          caption="Card payments"
          rows={view.checkouts}
          rowKey={(c) => c.id}
          rowTestId={() => 'customer-checkout'}
          rowData={(c) => ({ 'data-checkout-status': c.status, 'data-reference': c.reference })}
          // Metadata is the integrator's (docs/decisions.md §19); this list is the admin's only, as on the payouts list.
          rowDetails={(c) => (Object.keys(c.metadata).length > 0 ? <InlineIntegrationDetails metadata={c.metadata} /> : null)}
          columns={[
            { header: 'Amount', primary: true, className: 'tabular-nums', cell: (c) => naira(c.amount) },
            { header: 'Status', cell: (c) => <StatusBadge kind="checkout" status={c.status} /> },
            { header: 'For', cell: (c) => <Purpose checkout={c} /> },
            { header: 'Created', className: 'text-slate-600 sm:whitespace-nowrap', cell: (c) => dateTime(c.created_at) },
            { header: 'Outcome', className: 'text-slate-600', cell: (c) => ended(c) },
            { header: 'Applied', className: 'text-slate-700 [overflow-wrap:anywhere]', cell: (c) => applied(c) },
          ]}
        />
      )}
    </Card>
  );
}
