'use client';

import { useState } from 'react';
import { lazyForm } from '../ui/lazy-form';
import { resendDelivery } from '@/app/(dashboard)/admin/webhooks/actions';
import type { DeliveriesView, WebhookDelivery, WebhookEndpointWithSecret, WebhooksView } from '@/lib/contracts/dashboard-disputes';
import { ConfirmAction } from '../escrow/confirm-action';
import { dateTime } from '../escrow/money';
import { Badge, type BadgeTone } from '../ui/badge';
import { Button } from '../ui/button';
import { ShownOnce } from '../ui/shown-once';
import { Card, CardHeader } from '../ui/card';
import { cn } from '../ui/cn';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { invalidate, useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Table } from '../ui/table';

const NewEndpointForm = lazyForm(() => import('./webhook-endpoint-form').then((m) => m.NewEndpointForm));

const STATUS_TONE: Record<WebhookDelivery['status'], BadgeTone> = { pending: 'amber', succeeded: 'green', failed: 'red' };

function SecretOnce({ endpoint, onDismiss }: { endpoint: WebhookEndpointWithSecret; onDismiss: () => void }) {
  // A retried add (same Idempotency-Key) is answered without the secret: it was shown to the first attempt only.
  if (endpoint.secret === null) {
    return (
      <div className="mt-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="webhook-secret">
        <p className="break-words text-amber-900">
          {endpoint.url} was already added; its signing secret was shown only the first time. If it was not kept, delete the endpoint and add it again.
        </p>
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          Close
        </Button>
      </div>
    );
  }
  return (
    <div className="mt-4">
      <ShownOnce
        title={`Signing secret for ${endpoint.url} (shown only now: keep it where your receiver can read it)`}
        label="Signing secret"
        value={endpoint.secret}
        onDismiss={onDismiss}
      />
    </div>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const [page, setPage] = useState(1);
  const query = useLiveQuery({
    queryKey: ['webhook-deliveries', webhookId, page],
    queryFn: () => fetchJson<DeliveriesView>(`/data/webhooks/${webhookId}/deliveries?page=${page}`),
    keepPrevious: true,
    // A delivery due within the minute (one just resent) is followed to its answer.
    refetchInterval: (view) =>
      view?.deliveries.deliveries.some((d) => d.status === 'pending' && (!d.next_attempt_at || Date.parse(d.next_attempt_at) - Date.now() < 60_000)) ? 1_500 : 15_000,
  });
  if (query.isError && !query.data) return <ErrorState message={query.error.message} retry={() => void query.refetch()} />;
  if (!query.data) return <LoadingState label="Loading deliveries…" />;
  const { webhook, deliveries } = query.data;
  return (
    <Card aria-label={`Deliveries to ${webhook.url}`}>
      <CardHeader title="Deliveries" description={<span className="break-all font-mono">{webhook.url}</span>} />
      {deliveries.deliveries.length === 0 ? (
        <EmptyState title="No deliveries yet">Every event recorded from now on is sent here.</EmptyState>
      ) : (
        <Table
          caption={`Deliveries to ${webhook.url}`}
          rows={deliveries.deliveries}
          rowKey={(d) => d.id}
          rowTestId={() => 'delivery-row'}
          rowData={(d) => ({ 'data-delivery-id': d.id })}
          columns={[
            { header: 'Event', primary: true, className: 'font-mono text-xs', cell: (d) => d.event_type },
            { header: 'Status', cell: (d) => <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge> },
            { header: 'Attempts', testId: 'delivery-attempts', cell: (d) => d.attempts },
            {
              header: 'Last answer',
              cell: (d) => (d.last_status_code !== null ? `HTTP ${d.last_status_code}` : d.last_error ? <span title={d.last_error}>{d.last_error.slice(0, 40)}</span> : '—'),
            },
            { header: 'Next attempt', cell: (d) => (d.next_attempt_at ? dateTime(d.next_attempt_at) : '—') },
            {
              header: 'Actions',
              hideHeader: true,
              align: 'right',
              cell: (d) => (
                <ConfirmAction
                  label="Resend"
                  variant="secondary"
                  title={`Send this ${d.event_type} delivery again?`}
                  description={`It is POSTed to ${webhook.url} now, signed as usual. Your receiver should skip event ids it has already handled.`}
                  confirmLabel="Resend now"
                  run={(key) => resendDelivery({ webhook_id: webhook.id, delivery_id: d.id, idempotency_key: key })}
                  onDone={() => void invalidate(['webhook-deliveries', webhookId])}
                />
              ),
            },
          ]}
        />
      )}
      <PaginationControls page={page} pageCount={deliveries.pagination.pageCount} total={deliveries.pagination.total} onPage={setPage} label="records" />
    </Card>
  );
}

export function WebhooksAdmin({ initial }: { initial: WebhooksView }) {
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const query = useLiveQuery({ queryKey: ['webhooks'], queryFn: () => fetchJson<WebhooksView>('/data/webhooks'), initialData: initial });
  const webhooks = query.data?.webhooks ?? [];
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Add an endpoint" description="https to a public host only (a server started with ESCROW_WEBHOOKS_ALLOW_PRIVATE=1 also takes private addresses and, for test keys, plain http to them). At most 20 endpoints." />
        <NewEndpointForm
          onCreated={(endpoint) => {
            setCreated(endpoint);
            setSelected(endpoint.id);
            void invalidate(['webhooks']);
          }}
        />
        {created ? <SecretOnce endpoint={created} onDismiss={() => setCreated(null)} /> : null}
      </Card>
      <Card>
        <CardHeader title="Endpoints" />
        {query.isError ? <ErrorState message={query.error.message} retry={() => void query.refetch()} /> : null}
        {webhooks.length === 0 ? (
          <EmptyState title="No endpoints yet">Add one above to have every event pushed to your systems.</EmptyState>
        ) : (
          <ul className="divide-y" aria-label="Webhook endpoints">
            {webhooks.map((w) => (
              <li key={w.id} className={cn('flex flex-wrap items-center justify-between gap-3 py-2', selected === w.id && 'bg-emerald-50/60')} data-testid="webhook-row">
                <div className="min-w-0">
                  <p className="truncate font-mono text-sm text-slate-900">{w.url}</p>
                  <p className="text-xs text-slate-600">
                    {w.description ? `${w.description} · ` : ''}added {dateTime(w.created_at)}
                    {w.previous_secret_expires_at ? ` · rotating until ${dateTime(w.previous_secret_expires_at)}` : ''}
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  <Badge tone={w.enabled ? 'green' : 'grey'}>{w.enabled ? 'enabled' : 'disabled'}</Badge>
                  <Button size="sm" variant={selected === w.id ? 'primary' : 'secondary'} aria-pressed={selected === w.id} onClick={() => setSelected(w.id)}>
                    Deliveries
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {selected ? <Deliveries key={selected} webhookId={selected} /> : null}
    </div>
  );
}
