'use client';

import { useState } from 'react';
import { SelectField } from '../ui/field';

/**
 * The page, status and customer a list of the marketplace's records is filtered by; any change of filter
 * goes back to page 1. `query` is the data route's query string for them.
 */
export function useListFilters(initial: { status?: string } = {}) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState(initial.status ?? '');
  const [userId, setUserId] = useState('');
  return {
    page,
    setPage,
    status,
    userId,
    filtered: status !== '' || userId !== '',
    query: new URLSearchParams({ page: String(page), ...(status ? { status } : {}), ...(userId ? { user_id: userId } : {}) }).toString(),
    setStatus: (value: string) => {
      setStatus(value);
      setPage(1);
    },
    setUserId: (value: string) => {
      setUserId(value);
      setPage(1);
    },
  };
}

/** The status and customer filters above a list, side by side and each shrinking on a phone. */
export function ListFilters({
  label,
  filters,
  statuses,
  customers,
}: {
  label: string;
  filters: ReturnType<typeof useListFilters>;
  statuses: Record<string, { label: string }>;
  customers: Array<{ id: string; name: string }>;
}) {
  return (
    <div className="mb-4 flex flex-wrap gap-3" role="search" aria-label={label}>
      <SelectField label="Status" value={filters.status} onChange={(e) => filters.setStatus(e.target.value)} className="min-w-0 flex-1 sm:max-w-64">
        <option value="">Any status</option>
        {Object.entries(statuses).map(([value, { label: text }]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </SelectField>
      <SelectField label="Customer" value={filters.userId} onChange={(e) => filters.setUserId(e.target.value)} className="min-w-0 flex-1 sm:max-w-80">
        <option value="">Any customer</option>
        {customers.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
