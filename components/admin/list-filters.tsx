'use client';

import { useEffect, useRef, useState } from 'react';
import { buttonClasses } from '../ui/button';
import { SelectField, TextField } from '../ui/field';
import { useOptionsOnIntent, type CustomerOption } from './options-on-intent';
import { pickerStatus } from './picker-status';

const NAIRA = /^\d{1,12}(\.\d{1,2})?$/;
const amountError = (value: string) => (value.trim() === '' || NAIRA.test(value.trim()) ? undefined : 'Naira, at most 2 decimals (1500.50)');

/**
 * The page, status, customer, text, created-day and amount filters a list of the marketplace's records is
 * filtered by; any change of filter goes back to page 1. `query` is the data route's query string for them,
 * `filterQuery` the same without the page (the CSV download takes every page), `asServed` whether they are still the
 * page's own (page 1, the URL's status). The search waits for a
 * pause in typing; an amount that is not naira is left out (its field says why) rather than sent.
 */
export function useListFilters(initial: { status?: string } = {}) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState(initial.status ?? '');
  const [userId, setUserId] = useState('');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [createdFrom, setCreatedFrom] = useState('');
  const [createdTo, setCreatedTo] = useState('');
  const [amountMin, setAmountMin] = useState('');
  const [amountMax, setAmountMax] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const amount = (value: string) => (value.trim() !== '' && !amountError(value) ? value.trim() : '');
  const params: Record<string, string> = {
    ...(status ? { status } : {}),
    ...(userId ? { user_id: userId } : {}),
    ...(search ? { search } : {}),
    ...(createdFrom ? { created_from: createdFrom } : {}),
    ...(createdTo ? { created_to: createdTo } : {}),
    ...(amount(amountMin) ? { amount_min: amount(amountMin) } : {}),
    ...(amount(amountMax) ? { amount_max: amount(amountMax) } : {}),
  };
  const changes =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  return {
    page,
    setPage,
    status,
    userId,
    typed,
    createdFrom,
    createdTo,
    amountMin,
    amountMax,
    filtered: Object.keys(params).length > 0,
    // Page 1 under the filters the page was served with: the server-rendered first page is this query's answer. Given as
    // another query's data, it would be shown as that filter's answer until the next poll.
    asServed: page === 1 && new URLSearchParams(params).toString() === new URLSearchParams(initial.status ? { status: initial.status } : {}).toString(),
    query: new URLSearchParams({ page: String(page), ...params }).toString(),
    filterQuery: new URLSearchParams(params).toString(),
    setStatus: changes(setStatus),
    setUserId: changes(setUserId),
    setTyped: changes(setTyped),
    setCreatedFrom: changes(setCreatedFrom),
    setCreatedTo: changes(setCreatedTo),
    setAmountMin: changes(setAmountMin),
    setAmountMax: changes(setAmountMax),
  };
}

/**
 * The filters above a list, wrapping and each shrinking on a phone: a text search, the created days (Lagos),
 * and where the list has them a status, a customer and an amount range; then the list as a CSV file with
 * the same filters.
 */
export function ListFilters({
  label,
  filters,
  searchLabel,
  searchPlaceholder,
  statuses,
  customers,
  amounts = false,
  csvHref,
}: {
  label: string;
  filters: ReturnType<typeof useListFilters>;
  searchLabel: string;
  /** What the search looks in, e.g. "Title". */
  searchPlaceholder?: string;
  statuses?: Record<string, { label: string }>;
  /** Whether the list filters by customer: the customers are asked for when the person reaches for the picker. */
  customers?: boolean;
  amounts?: boolean;
  csvHref: string;
}) {
  const query = filters.filterQuery;
  // Words typed before the page's code was live are in the field but not in the state: take them over once it is.
  const searchField = useRef<HTMLInputElement>(null);
  const { typed, setTyped } = filters;
  useEffect(() => {
    const early = searchField.current?.value ?? '';
    if (early && early !== typed) setTyped(early);
    // Once, on mount: afterwards the field and the state move together.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="mb-4 space-y-3">
      <div className="flex flex-wrap items-end gap-3" role="search" aria-label={label}>
        <TextField
          ref={searchField}
          label={searchLabel}
          type="search"
          placeholder={searchPlaceholder}
          value={filters.typed}
          onChange={(e) => filters.setTyped(e.target.value)}
          className="min-w-0 flex-1 basis-56 sm:max-w-80"
        />
        {statuses ? (
          <SelectField label="Status" value={filters.status} onChange={(e) => filters.setStatus(e.target.value)} className="min-w-0 flex-1 basis-40 sm:max-w-64">
            <option value="">Any status</option>
            {Object.entries(statuses).map(([value, { label: text }]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </SelectField>
        ) : null}
        {customers ? <CustomerFilter value={filters.userId} onChange={filters.setUserId} /> : null}
        <TextField label="Created from" type="date" value={filters.createdFrom} onChange={(e) => filters.setCreatedFrom(e.target.value)} className="min-w-0 basis-40" />
        <TextField label="Created to" type="date" value={filters.createdTo} onChange={(e) => filters.setCreatedTo(e.target.value)} className="min-w-0 basis-40" />
        {amounts ? (
          <>
            <TextField
              label="Amount from (₦)"
              inputMode="decimal"
              value={filters.amountMin}
              error={amountError(filters.amountMin)}
              onChange={(e) => filters.setAmountMin(e.target.value)}
              className="min-w-0 basis-32 sm:max-w-40"
            />
            <TextField
              label="Amount to (₦)"
              inputMode="decimal"
              value={filters.amountMax}
              error={amountError(filters.amountMax)}
              onChange={(e) => filters.setAmountMax(e.target.value)}
              className="min-w-0 basis-32 sm:max-w-40"
            />
          </>
        ) : null}
      </div>
      <a href={`${csvHref}${query ? `?${query}` : ''}`} download className={buttonClasses('secondary', 'sm')}>
        Download CSV
      </a>
    </div>
  );
}

function CustomerFilter({ value, onChange }: { value: string; onChange: (userId: string) => void }) {
  const { options, state, retry, intent } = useOptionsOnIntent<CustomerOption>('/data/customers/options');
  const status = pickerStatus([state], 'customers', retry);
  return (
    <SelectField
      label="Customer"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-busy={state === 'loading'}
      hint={status}
      className="min-w-0 flex-1 basis-40 sm:max-w-80"
      {...intent}
    >
      <option value="">Any customer</option>
      {options.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </SelectField>
  );
}
