import { TransactionFilters, type TransactionList } from '@/lib/contracts/dashboard';
import { csvResponse, lagosToday } from '@/lib/server/dashboard/csv';
import { badRequest, forbidden, withActor } from '@/lib/server/dashboard/route-json';
import { adminTransactions } from '@/lib/server/dashboard/views';

type Row = TransactionList['transactions'][number];

const person = (p: Row['buyer']) => `${p.user.first_name} ${p.user.last_name}`;

/** The admin's (or viewer's) transactions list as CSV, every page of it, with the list's filters. */
export const GET = withActor(async (actor, request) => {
  if (actor.kind !== 'admin') return forbidden();
  const filters = TransactionFilters.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!filters.success) return badRequest('Those filters are not valid.');
  return csvResponse<Row>(
    `transactions-${lagosToday()}.csv`,
    ['id', 'title', 'status', 'buyer', 'buyer_email', 'seller', 'seller_email', 'amount', 'currency', 'created_at'],
    (t) => [t.id, t.title, t.status, person(t.buyer), t.buyer.user.email, person(t.seller), t.seller.user.email, t.transaction_amount, t.currency, t.created_at],
    async (page) => {
      const result = await adminTransactions(actor, { ...filters.data, page }, 100);
      return result.ok ? { ok: true, rows: result.data.transactions, hasNextPage: result.data.pagination.hasNextPage } : { ok: false, message: result.message };
    },
  );
});
