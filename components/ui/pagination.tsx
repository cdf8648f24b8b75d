import { Button } from './button';

const count = (total: number, label: string) => `${total} ${total === 1 ? label.replace(/s$/, '') : label}`;

export function PaginationControls({ page, pageCount, total, onPage, label = 'items' }: { page: number; pageCount: number; total: number; onPage: (page: number) => void; label?: string }) {
  if (pageCount <= 1) return <p className="mt-3 text-sm text-slate-600">{count(total, label)}</p>;
  return (
    <nav aria-label="Pagination" className="mt-3 flex items-center justify-between gap-3 text-sm text-slate-600">
      <span>
        Page {page} of {pageCount} · {count(total, label)}
      </span>
      <span className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </span>
    </nav>
  );
}
