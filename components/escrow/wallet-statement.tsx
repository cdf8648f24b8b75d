import Link from 'next/link';
import type { StatementLine, StatementView } from '@/lib/contracts/dashboard-statements';
import { buttonClasses } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { TextField } from '../ui/field';
import { EmptyState } from '../ui/states';
import { Table } from '../ui/table';
import { STATEMENT_KIND } from './statement-kinds';
import { dateTime, naira } from './format';

const signed = (amount: number) => (amount < 0 ? `−${naira(-amount)}` : `+${naira(amount)}`);

/** The month as a person reads it: "November 2026". */
function monthName(month: string): string {
  return new Date(`${month}-15T12:00:00Z`).toLocaleDateString('en-NG', { month: 'long', year: 'numeric', timeZone: 'Africa/Lagos' });
}

function LineDescription({ line }: { line: StatementLine }) {
  if (!line.transaction_id) return <>{line.description}</>;
  return (
    <Link href={`/transactions/${line.transaction_id}`} className="text-emerald-800 underline-offset-2 hover:underline">
      {line.description}
    </Link>
  );
}

/**
 * A wallet's monthly statement (docs/decisions.md §18): the month picker (a plain GET form: it works before any script
 * has loaded), the opening balance, each line with the balance after it, the totals and the closing balance, and the
 * same lines as the API's CSV through `csvHref`.
 */
export function WalletStatement({ view, csvHref }: { view: StatementView; csvHref: string }) {
  const { statement, month } = view;
  const figures: Array<[string, string, string]> = [
    ['Opening balance', naira(statement.opening_balance), 'statement-opening'],
    ['Total in', naira(statement.total_in), 'statement-total-in'],
    ['Total out', naira(statement.total_out), 'statement-total-out'],
    ['Closing balance', naira(statement.closing_balance), 'statement-closing'],
  ];
  return (
    <div className="space-y-6">
      <Card>
        <form method="get" className="flex flex-wrap items-end gap-3" aria-label="Choose the month">
          <TextField label="Month" type="month" name="month" defaultValue={month} required pattern="[0-9]{4}-[0-9]{2}" placeholder="2026-11" className="min-w-0 flex-1 sm:max-w-56" />
          <button type="submit" className={buttonClasses('secondary', 'md')}>
            Show
          </button>
          <a href={csvHref} download className={buttonClasses('secondary', 'md')} data-testid="statement-csv">
            Download CSV
          </a>
        </form>
      </Card>
      <Card aria-labelledby="statement-heading">
        <CardHeader title={<span id="statement-heading">{monthName(month)}</span>} description="Every movement of the month, oldest first, with the balance after it." />
        <dl className="mb-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {figures.map(([label, value, testId]) => (
            <div key={label} className="rounded-md bg-slate-50 p-3">
              <dt className="text-xs text-slate-600">{label}</dt>
              <dd className="mt-0.5 font-semibold tabular-nums text-slate-900 [overflow-wrap:anywhere]" data-testid={testId}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
        {statement.lines.length === 0 ? (
          <EmptyState title="No movements this month" />
        ) : (
          <Table
            caption={`Statement for ${monthName(month)}`}
            rows={statement.lines}
            rowKey={(l) => `${l.at}-${l.kind}-${l.transaction_id ?? ''}-${l.payout_id ?? ''}-${l.checkout_id ?? ''}-${l.balance_after}`}
            rowTestId={() => 'statement-line'}
            columns={[
              { header: 'Date', className: 'text-slate-600 sm:whitespace-nowrap', cell: (l) => <time dateTime={l.at}>{dateTime(l.at)}</time> },
              { header: 'What', primary: true, cell: (l) => STATEMENT_KIND[l.kind] ?? l.kind },
              { header: 'Description', className: 'text-slate-700 [overflow-wrap:anywhere]', cell: (l) => <LineDescription line={l} /> },
              {
                header: 'Amount',
                align: 'right',
                className: 'font-medium tabular-nums sm:whitespace-nowrap',
                cell: (l) => <span className={l.amount < 0 ? 'text-rose-700' : 'text-emerald-700'}>{signed(l.amount)}</span>,
              },
              { header: 'Balance after', align: 'right', className: 'tabular-nums sm:whitespace-nowrap', cell: (l) => naira(l.balance_after) },
            ]}
          />
        )}
      </Card>
    </div>
  );
}
