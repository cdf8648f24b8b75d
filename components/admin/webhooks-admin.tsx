'use client';

import { useState } from 'react';
import { lazyForm } from '../ui/lazy-form';
import { deleteWebhook, replayWebhook, resendDelivery, rotateWebhookSecret, sendTestEvent } from '@/lib/actions/webhooks';
import type { DeliveriesView, DeliveryPayloadView, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhooksView } from '@/lib/contracts/dashboard-disputes';
import { ConfirmAction } from '../escrow/confirm-action';
import { dateTime } from '../escrow/format';
import { Badge, type BadgeTone } from '../ui/badge';
import { Button } from '../ui/button';
import { ShownOnce } from '../ui/shown-once';
import { Card, CardHeader } from '../ui/card';
import { cn } from '../ui/cn';
import { Dialog } from '../ui/dialog';
import { useIntentKey } from '../ui/intent-key';
import { toast } from '../ui/toast';
import { fetchJson } from '../ui/fetch-json';
import { PaginationControls } from '../ui/pagination';
import { invalidate, useLiveQuery } from '../live/live-query';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Table } from '../ui/table';

const NewEndpointForm = lazyForm(() => import('./webhook-endpoint-form').then((m) => m.NewEndpointForm));

const STATUS_TONE: Record<WebhookDelivery['status'], BadgeTone> = { pending: 'amber', succeeded: 'green', failed: 'red' };

/** A signing secret the API returned once: just after the endpoint was added, or its secret rotated. */
type Revealed = { endpoint: WebhookEndpointWithSecret; reason: 'created' | 'rotated' };

function SecretOnce({ revealed: { endpoint, reason }, onDismiss }: { revealed: Revealed; onDismiss: () => void }) {
  // A retried add or rotation (same Idempotency-Key) is answered without the secret: it was shown to the first attempt only.
  if (endpoint.secret === null) {
    return (
      <div className="mt-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="webhook-secret">
        <p className="break-words text-amber-900">
          {reason === 'created'
            ? `${endpoint.url} was already added; its signing secret was shown only the first time. If it was not kept, rotate its secret.`
            : `The secret of ${endpoint.url} was already rotated; the new secret was shown only the first time. If it was not kept, rotate it again.`}
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
        title={
          reason === 'created'
            ? `Signing secret for ${endpoint.url} (shown only now: keep it where your receiver can read it)`
            : `New signing secret for ${endpoint.url} (shown only now). The previous one also signs every delivery for 24 hours: switch your receiver over before then.`
        }
        label={reason === 'created' ? 'Signing secret' : 'New signing secret'}
        value={endpoint.secret}
        testId="webhook-secret-value"
        onDismiss={onDismiss}
      />
    </div>
  );
}

/** The exact JSON a delivery POSTs (was sent, or will be), pretty-printed. */
function PayloadView({ eventId }: { eventId: string }) {
  const query = useLiveQuery({ queryKey: ['event-payload', eventId], queryFn: () => fetchJson<DeliveryPayloadView>(`/data/events/${eventId}`), refetchInterval: () => 300_000 });
  if (query.isError && !query.data) return <ErrorState message={query.error.message} retry={() => void query.refetch()} />;
  if (!query.data) return <LoadingState label="Loading the payload…" />;
  return (
    <pre data-testid="delivery-payload" tabIndex={0} aria-label="Payload JSON" className="max-h-[60vh] overflow-auto rounded-md border bg-slate-50 p-3 font-mono text-xs text-slate-900">
      {JSON.stringify(query.data.payload, null, 2)}
    </pre>
  );
}

function PayloadButton({ delivery }: { delivery: WebhookDelivery }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="ghost" aria-label={`Payload of this ${delivery.event_type} delivery`} onClick={() => setOpen(true)}>
        Payload
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`${delivery.event_type} payload`}
        description="The JSON body POSTed to the endpoint, signed in the Escrow-Signature header. Receivers should skip event ids they have already handled."
      >
        <PayloadView eventId={delivery.event_id} />
        <div className="mt-4 flex justify-end">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Close
          </Button>
        </div>
      </Dialog>
    </>
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
                <div className="flex items-center justify-end gap-2">
                <PayloadButton delivery={d} />
                <ConfirmAction
                  label="Resend"
                  variant="secondary"
                  title={`Send this ${d.event_type} delivery again?`}
                  description={`It is POSTed to ${webhook.url} now, signed as usual. Your receiver should skip event ids it has already handled.`}
                  confirmLabel="Resend now"
                  run={(key) => resendDelivery({ webhook_id: webhook.id, delivery_id: d.id, idempotency_key: key })}
                  onDone={() => void invalidate(['webhook-deliveries', webhookId])}
                />
                </div>
              ),
            },
          ]}
        />
      )}
      <PaginationControls page={page} pageCount={deliveries.pagination.pageCount} total={deliveries.pagination.total} onPage={setPage} label="records" />
    </Card>
  );
}

/** Queues a webhook.test event to this endpoint; its delivery shows in the log below. */
function TestEventButton({ endpoint, onSent }: { endpoint: WebhookEndpoint; onSent: () => void }) {
  const [busy, setBusy] = useState(false);
  const [key, renewKey] = useIntentKey();
  async function send() {
    setBusy(true);
    try {
      const result = await sendTestEvent({ webhook_id: endpoint.id, idempotency_key: key });
      toast.result(result);
      if (result.ok) {
        renewKey();
        onSent();
      }
    } catch {
      toast.error('The request did not go through. Check your connection and try again.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button size="sm" variant="secondary" loading={busy} aria-label={`Send a test event to ${endpoint.url}`} onClick={() => void send()}>
      Send test event
    </Button>
  );
}

/** A datetime-local input's value (the browser's own time zone), one day before now. */
function dayAgoLocal(): string {
  const d = new Date(Date.now() - 86_400_000 - new Date().getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/**
 * "Replay from…": every event after one (by its id, as the delivery log and the payload show it) or since a
 * date and time is queued again for this endpoint; asked in the dialog, confirmed there, counted in the toast.
 */
function ReplayFrom({ endpoint, onQueued }: { endpoint: WebhookEndpoint; onQueued: () => void }) {
  const [from, setFrom] = useState<'since' | 'after'>('since');
  const [since, setSince] = useState(dayAgoLocal);
  const [eventId, setEventId] = useState('');
  const field = 'mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm text-slate-900';
  return (
    <ConfirmAction
      label="Replay from…"
      size="sm"
      variant="secondary"
      accessibleLabel={`Replay events to ${endpoint.url}`}
      title="Send past events to this endpoint again?"
      confirmLabel="Replay"
      description={
        <div className="space-y-3 text-left">
          <p>
            Every event from the point you choose is queued again for <span className="break-all font-mono">{endpoint.url}</span>, each transaction&apos;s in order. Your receiver
            should skip event ids it has already handled.
          </p>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-900">Replay from</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="replay-from" value="since" checked={from === 'since'} onChange={() => setFrom('since')} />A date and time
            </label>
            {from === 'since' ? (
              <label className="block text-sm">
                <span className="sr-only">Date and time to replay from</span>
                <input type="datetime-local" className={field} value={since} onChange={(e) => setSince(e.target.value)} required />
              </label>
            ) : null}
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="replay-from" value="after" checked={from === 'after'} onChange={() => setFrom('after')} />
              After an event
            </label>
            {from === 'after' ? (
              <label className="block text-sm">
                <span className="text-slate-700">Event id (from the delivery log&apos;s payload)</span>
                <input type="text" className={cn(field, 'font-mono')} value={eventId} onChange={(e) => setEventId(e.target.value.trim())} placeholder="0193a1b2-…" spellCheck={false} />
              </label>
            ) : null}
          </fieldset>
        </div>
      }
      run={(key) =>
        replayWebhook({
          webhook_id: endpoint.id,
          idempotency_key: key,
          // An empty or unreadable date goes as it is, for the action's validation to name.
          ...(from === 'after' ? { after_event_id: eventId } : { since: Number.isNaN(Date.parse(since)) ? since : new Date(since).toISOString() }),
        })
      }
      onDone={onQueued}
    />
  );
}

export function WebhooksAdmin({ initial }: { initial: WebhooksView }) {
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const query = useLiveQuery({ queryKey: ['webhooks'], queryFn: () => fetchJson<WebhooksView>('/data/webhooks'), initialData: initial });
  const webhooks = query.data?.webhooks ?? [];
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Add an endpoint" description="https to a public host only. To reach a private address (or plain http to one, with test keys), ask the people who run this Escrow Desk server to allow it. At most 20 endpoints." />
        <NewEndpointForm
          onCreated={(endpoint) => {
            setRevealed({ endpoint, reason: 'created' });
            setSelected(endpoint.id);
            void invalidate(['webhooks']);
          }}
        />
        {revealed?.reason === 'created' ? <SecretOnce revealed={revealed} onDismiss={() => setRevealed(null)} /> : null}
      </Card>
      <Card>
        <CardHeader title="Endpoints" />
        {revealed?.reason === 'rotated' ? <SecretOnce revealed={revealed} onDismiss={() => setRevealed(null)} /> : null}
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
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={w.enabled ? 'green' : 'grey'}>{w.enabled ? 'enabled' : 'disabled'}</Badge>
                  {w.enabled ? (
                    <>
                      <TestEventButton
                        endpoint={w}
                        onSent={() => {
                          setSelected(w.id);
                          void invalidate(['webhook-deliveries', w.id]);
                        }}
                      />
                      <ReplayFrom
                        endpoint={w}
                        onQueued={() => {
                          setSelected(w.id);
                          void invalidate(['webhook-deliveries', w.id]);
                        }}
                      />
                      <ConfirmAction
                        label="Rotate secret"
                        size="sm"
                        variant="secondary"
                        accessibleLabel={`Rotate the secret of ${w.url}`}
                        title="Rotate this endpoint's signing secret?"
                        description={`A new secret is made for ${w.url} and shown to you once. For 24 hours every delivery is signed with both the new and the previous secret, so your receiver can switch over.`}
                        confirmLabel="Rotate secret"
                        run={async (key) => {
                          const result = await rotateWebhookSecret({ webhook_id: w.id, idempotency_key: key });
                          if (result.ok && result.data) setRevealed({ endpoint: result.data, reason: 'rotated' });
                          return result;
                        }}
                        onDone={() => void invalidate(['webhooks'])}
                      />
                      <ConfirmAction
                        label="Delete"
                        size="sm"
                        variant="ghost"
                        confirmVariant="danger"
                        accessibleLabel={`Delete the endpoint ${w.url}`}
                        title="Delete this webhook endpoint?"
                        description={`Nothing more is sent to ${w.url}; deliveries still waiting are marked failed. Its delivery log stays readable here. This cannot be undone: add the URL again to receive events there.`}
                        confirmLabel="Delete endpoint"
                        run={(key) => deleteWebhook({ webhook_id: w.id, idempotency_key: key })}
                        onDone={() => {
                          void invalidate(['webhooks']);
                          void invalidate(['webhook-deliveries', w.id]);
                        }}
                      />
                    </>
                  ) : null}
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
