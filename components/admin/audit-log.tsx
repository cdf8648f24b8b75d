'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, AUDIT_ROLE_LABELS, auditActionLabel, type AuditDetail, type AuditEntry } from '@/lib/contracts/audit';
import type { Pagination } from '@/lib/contracts/common';
import { dateTime, naira } from '../escrow/format';
import { Badge } from '../ui/badge';
import { Button, buttonClasses } from '../ui/button';
import { Card } from '../ui/card';
import { SelectField, TextField } from '../ui/field';
import { PaginationControls } from '../ui/pagination';
import { EmptyState } from '../ui/states';
import { Table, type Column } from '../ui/table';

/** The filters as the page's URL holds them (GET query parameters), so a filtered view is a link. */
export type AuditLogFilters = { action?: string; actor?: string; from?: string; to?: string };

const text = (value: AuditDetail[string] | undefined) => (typeof value === 'string' ? value : '');

/** The facts of an entry in a sentence, where its action has any worth saying. */
function summaryOf(entry: AuditEntry): string {
  const d = entry.detail;
  switch (entry.action) {
    case 'settings_changed':
      return typeof d.auto_payout === 'boolean' ? `Automatic payouts turned ${d.auto_payout ? 'on' : 'off'}` : '';
    case 'key_rolled':
      return `New key ends in ${text(d.last4)}${d.previous_keys_expire_at ? `; earlier keys work until ${dateTime(text(d.previous_keys_expire_at))}` : ''}`;
    case 'verdict':
      return `${text(d.dispute_code)}: the seller receives ${typeof d.seller_amount === 'number' ? naira(d.seller_amount) : 'an amount'}`;
    case 'fund_on_behalf':
      return `“${text(d.milestone_title)}” of “${text(d.transaction_title)}”`;
    case 'transaction_created':
      return d.title ? `“${text(d.title)}”` : '';
    case 'customer_created':
    case 'customer_deactivated':
    case 'customer_reactivated':
      return [text(d.name), text(d.email)].filter(Boolean).join(', ');
    case 'customer_updated':
      return [text(d.name), d.phone === undefined ? '' : `phone ${d.phone === null ? 'removed' : text(d.phone)}`].filter(Boolean).join(', ');
    case 'invite_sent':
    case 'member_invite_resent':
    case 'member_removed':
      return text(d.email);
    case 'member_invited':
    case 'client_admin_invited':
      return [text(d.email), text(d.role), text(d.client_name)].filter(Boolean).join(', ');
    case 'client_created':
      return [text(d.name), text(d.mode)].filter(Boolean).join(', ');
    case 'client_updated':
      return Object.entries(d)
        .filter(([name]) => name !== 'client_name')
        .map(([name, value]) => `${detailName(name)}: ${String(value)}`)
        .join('; ');
    case 'wallet_funded':
      return typeof d.amount === 'number' ? naira(d.amount) : '';
    case 'bank_account_saved':
      return `${text(d.bank_name)} ••••${text(d.account_last4)} (${text(d.account_name)})`;
    case 'payout_failed':
    case 'payout_reversed':
      return text(d.reason);
    case 'webhook_created':
      return text(d.url);
    case 'email_resent':
      return `“${text(d.subject)}” to ${text(d.to)}`;
    case 'clock_advanced':
      return `by ${String(d.amount)} ${text(d.unit)}`;
    default:
      return '';
  }
}

/** Actions whose target is a customer: their entries link to the customer's page. */
const CUSTOMER_ACTIONS: ReadonlySet<string> = new Set(['customer_created', 'customer_updated', 'customer_deactivated', 'customer_reactivated', 'invite_sent', 'wallet_funded']);

/** Where the thing acted on is shown in the dashboard, if it is a page of its own. */
function targetHref(entry: AuditEntry): string | null {
  const id = entry.target;
  if (entry.action === 'fund_on_behalf' && entry.detail.transaction_id) return `/transactions/${text(entry.detail.transaction_id)}`;
  if (!id) return null;
  if (CUSTOMER_ACTIONS.has(entry.action)) return `/admin/customers/${id}`;
  if (entry.action === 'transaction_created') return `/transactions/${id}`;
  if (entry.action === 'verdict') return `/disputes/${id}`;
  return null;
}

const detailName = (name: string) => name.replaceAll('_', ' ');

function columnsOf(linkTargets: boolean): Column<AuditEntry>[] {
  return [
    {
      header: 'Who',
      primary: true,
      cell: (entry) => (
        <>
          <p className="break-all font-normal text-slate-900" data-testid="audit-actor">
            {entry.actor.email}
          </p>
          <Badge tone={entry.actor.role === 'admin' ? 'green' : 'grey'}>{AUDIT_ROLE_LABELS[entry.actor.role]}</Badge>
        </>
      ),
    },
    {
      header: 'What',
      stacked: true,
      cell: (entry) => {
        const summary = summaryOf(entry);
        const details = Object.entries(entry.detail);
        return (
          <>
            <p className="font-medium text-slate-900" data-testid="audit-action">
              {auditActionLabel(entry.action)}
            </p>
            {summary ? <p className="break-words text-slate-700">{summary}</p> : null}
            {details.length > 0 ? (
              <details className="mt-1 text-xs text-slate-600">
                <summary className="cursor-pointer">Details</summary>
                <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2">
                  {details.map(([name, value]) => (
                    <div key={name} className="contents">
                      <dt>{detailName(name)}</dt>
                      <dd className="break-all font-mono">{String(value)}</dd>
                    </div>
                  ))}
                </dl>
              </details>
            ) : null}
          </>
        );
      },
    },
    {
      header: 'On',
      testId: 'audit-target',
      className: 'font-mono text-xs text-slate-700',
      cell: (entry) => {
        const href = linkTargets ? targetHref(entry) : null;
        return href ? (
          <Link href={href} className="break-all text-emerald-800 underline underline-offset-2">
            {entry.target ?? text(entry.detail.transaction_id)}
          </Link>
        ) : (
          <span className="break-all">{entry.target ?? '—'}</span>
        );
      },
    },
    {
      header: 'When (WAT)',
      className: 'text-slate-700 sm:whitespace-nowrap',
      cell: (entry) => <time dateTime={entry.created_at}>{dateTime(entry.created_at)}</time>,
    },
    { header: 'From address', testId: 'audit-address', className: 'font-mono text-xs text-slate-700', cell: (entry) => entry.address },
  ];
}

export function AuditFilterForm({ filters, basePath }: { filters: AuditLogFilters; basePath: string }) {
  return (
    // A plain GET form: the filters become the URL's query. Keyed by them so "Clear" draws the fields empty again.
    <form key={JSON.stringify(filters)} method="get" action={basePath} role="search" aria-label="Filter the audit log" className="mb-4 flex flex-wrap items-end gap-3">
      <SelectField label="Action" name="action" defaultValue={filters.action ?? ''} className="w-full min-w-0 sm:w-auto sm:flex-1 sm:max-w-64">
        <option value="">Any action</option>
        {AUDIT_ACTIONS.map((action) => (
          <option key={action} value={action}>
            {AUDIT_ACTION_LABELS[action]}
          </option>
        ))}
      </SelectField>
      <TextField label="Person’s email" name="actor" type="search" defaultValue={filters.actor ?? ''} className="w-full min-w-0 sm:w-auto sm:flex-1 sm:max-w-64" />
      <TextField label="From" name="from" type="date" defaultValue={filters.from ?? ''} className="min-w-0 flex-1 basis-32 sm:flex-none sm:basis-auto" />
      <TextField label="To" name="to" type="date" defaultValue={filters.to ?? ''} className="min-w-0 flex-1 basis-32 sm:flex-none sm:basis-auto" />
      <div className="flex gap-2">
        <Button type="submit" variant="secondary">
          Filter
        </Button>
        <Link href={basePath} className={buttonClasses('ghost')}>
          Clear
        </Link>
      </div>
    </form>
  );
}

/** `basePath`: the page it is on (an admin's log, or the operator's of every client); `linkTargets`: link what was acted on to the admin's pages. */
export function AuditLog({
  entries,
  pagination,
  filters,
  basePath = '/admin/audit',
  linkTargets = true,
}: {
  entries: AuditEntry[];
  pagination: Pagination;
  filters: AuditLogFilters;
  basePath?: string;
  linkTargets?: boolean;
}) {
  const router = useRouter();
  const filtered = Object.values(filters).some(Boolean);
  const toPage = (page: number) => {
    const query = new URLSearchParams(Object.entries(filters).filter((pair): pair is [string, string] => Boolean(pair[1])));
    query.set('page', String(page));
    router.push(`${basePath}?${query.toString()}`);
  };
  return (
    <Card>
      <AuditFilterForm filters={filters} basePath={basePath} />
      {entries.length === 0 ? (
        <EmptyState title={filtered ? 'Nothing matches these filters' : 'Nothing recorded yet'}>
          Sign-ins, invitations, key rolls, setting changes, verdicts and every change an admin makes are listed here.
        </EmptyState>
      ) : (
        <Table
          caption="Audit log, newest first"
          rows={entries}
          rowKey={(entry) => entry.id}
          rowTestId={() => 'audit-row'}
          rowData={(entry) => ({ 'data-action': entry.action })}
          verticalAlign="top"
          columns={columnsOf(linkTargets)}
        />
      )}
      <PaginationControls page={pagination.page} pageCount={pagination.pageCount} total={pagination.total} onPage={toPage} label="actions" />
    </Card>
  );
}
