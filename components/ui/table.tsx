import { Fragment, type ReactNode } from 'react';
import { cn } from './cn';

export type Column<T> = {
  header: string;
  cell: (row: T) => ReactNode;
  /** numbers (amounts) line up on the right on wide screens */
  align?: 'right';
  /** the row's name (a title, a person): on a phone it heads the card (whatever its column's place), without a label */
  primary?: boolean;
  /** the header is read by screen readers only (an actions column), and the card shows no label for it */
  hideHeader?: boolean;
  /** long content (a paragraph, details): on a phone it goes under its label rather than beside it */
  stacked?: boolean;
  /** the cell's data-testid */
  testId?: string;
  className?: string;
};

/** Attributes a row may carry besides its test id (`data-action`, `data-delivery-id`…), for specs and styling. */
export type RowData = Record<`data-${string}`, string | undefined>;

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
  rowData,
  verticalAlign = 'middle',
  rowDetails,
}: {
  caption: string;
  rows: T[];
  rowKey: (row: T) => string;
  columns: Column<T>[];
  rowTestId?: (row: T) => string;
  rowData?: (row: T) => RowData;
  /** `top` for rows of several lines (an audit entry with its details) */
  verticalAlign?: 'middle' | 'top';
  /** more about a row (its metadata…), across the whole width under it rather than squeezed into a column; null for none */
  rowDetails?: (row: T) => ReactNode;
}) {
  return (
    <table role="table" className="block w-full min-w-0 text-left text-sm sm:table">
      <caption className="sr-only">{caption}</caption>
      <thead role="rowgroup" className="hidden border-b text-xs uppercase tracking-wide text-slate-500 sm:table-header-group">
        <tr role="row">
          {columns.map((column) => (
            <th key={column.header} role="columnheader" scope="col" className={cn('py-2 pr-4 last:pr-0', column.align === 'right' && 'text-right')}>
              {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className="block space-y-2 sm:table-row-group sm:space-y-0">
        {rows.map((row) => {
          const details = rowDetails?.(row) ?? null;
          return (
            <Fragment key={rowKey(row)}>
              <tr
                role="row"
                data-testid={rowTestId?.(row)}
                {...rowData?.(row)}
                className={cn(
                  'flex min-w-0 flex-col rounded-lg border bg-white p-3 sm:table-row sm:rounded-none sm:border-0 sm:bg-transparent sm:p-0',
                  // With details under it, the row and its details read as one card (phone) or one band (table).
                  details === null ? 'sm:border-b sm:last:border-0' : 'mb-0 rounded-b-none border-b-0 pb-0',
                )}
              >
                {columns.map((column) => {
                  const labelled = !column.primary && !column.hideHeader;
                  return (
                    <td
                      key={column.header}
                      role="cell"
                      data-label={labelled ? column.header : undefined}
                      data-testid={column.testId}
                      className={cn(
                        'min-w-0 py-0.5 break-words sm:table-cell sm:py-2 sm:pr-4 sm:last:pr-0',
                        verticalAlign === 'top' && 'sm:align-top',
                        column.stacked || column.primary ? 'block' : 'flex items-baseline justify-between gap-3',
                        labelled && 'before:font-sans before:text-xs before:font-medium before:text-slate-500 before:content-[attr(data-label)] sm:before:content-none',
                        labelled && (column.stacked ? 'before:block' : 'before:shrink-0'),
                        column.hideHeader && 'items-center justify-end pt-2',
                        column.primary && 'order-first pb-1 font-medium sm:order-none',
                        column.align === 'right' && 'sm:text-right',
                        column.className,
                      )}
                    >
                      {column.primary || column.stacked ? column.cell(row) : <span className="min-w-0 text-right max-sm:[overflow-wrap:anywhere]">{column.cell(row)}</span>}
                    </td>
                  );
                })}
              </tr>
              {details === null ? null : (
                <tr
                  role="row"
                  data-testid={rowTestId ? `${rowTestId(row)}-details` : undefined}
                  {...rowData?.(row)}
                  className="block min-w-0 rounded-b-lg border border-t-0 bg-white px-3 pb-3 sm:table-row sm:rounded-none sm:border-0 sm:border-b sm:bg-transparent sm:p-0 sm:last:border-0"
                >
                  <td role="cell" colSpan={columns.length} className="block min-w-0 break-words sm:table-cell sm:pb-2">
                    {details}
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
