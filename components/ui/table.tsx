import type { ReactNode } from 'react';
import { cn } from './cn';

export type Column<T> = {
  header: string;
  cell: (row: T) => ReactNode;
  /** numbers (amounts) line up on the right on wide screens */
  align?: 'right';
  /** the row's name (a title, a person): on a phone it heads the card, without a label */
  primary?: boolean;
  className?: string;
};

/**
 * Every list of records in the dashboard. On a wide screen, a table; under 640 px each row becomes a card whose
 * cells carry their column's name, so amounts and statuses stay in view rather than behind a sideways scroll.
 * The roles are spelled out because some browsers drop a table's semantics once its display changes.
 */
export function Table<T>({
  caption,
  rows,
  rowKey,
  columns,
  rowTestId,
}: {
  caption: string;
  rows: T[];
  rowKey: (row: T) => string;
  columns: Column<T>[];
  rowTestId?: (row: T) => string;
}) {
  return (
    <table role="table" className="block w-full text-left text-sm sm:table">
      <caption className="sr-only">{caption}</caption>
      <thead role="rowgroup" className="hidden border-b text-xs uppercase tracking-wide text-slate-500 sm:table-header-group">
        <tr role="row">
          {columns.map((column) => (
            <th key={column.header} role="columnheader" scope="col" className={cn('py-2 pr-4 last:pr-0', column.align === 'right' && 'text-right')}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className="block space-y-2 sm:table-row-group sm:space-y-0">
        {rows.map((row) => (
          <tr
            key={rowKey(row)}
            role="row"
            data-testid={rowTestId?.(row)}
            className="block rounded-lg border bg-white p-3 sm:table-row sm:rounded-none sm:border-0 sm:border-b sm:bg-transparent sm:p-0 sm:last:border-0"
          >
            {columns.map((column) => (
              <td
                key={column.header}
                role="cell"
                data-label={column.primary ? undefined : column.header}
                className={cn(
                  'flex min-w-0 items-start justify-between gap-3 py-0.5 break-words sm:table-cell sm:py-2 sm:pr-4 sm:last:pr-0',
                  !column.primary && 'before:shrink-0 before:text-xs before:font-medium before:text-slate-500 before:content-[attr(data-label)] sm:before:content-none',
                  column.primary && 'pb-1 font-medium',
                  column.align === 'right' && 'sm:text-right',
                  column.className,
                )}
              >
                {column.primary ? column.cell(row) : <span className="min-w-0 text-right">{column.cell(row)}</span>}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

