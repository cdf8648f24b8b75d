import { PayoutFilters, type PayoutRow } from '@/lib/contracts/dashboard-payouts';
import { csvResponse, lagosToday } from '@/lib/server/dashboard/csv';
import { payoutsView } from '@/lib/server/dashboard/payouts';
import { badRequest, forbidden, withActor } from '@/lib/server/dashboard/route-json';

/** The admin's (or viewer's) payouts list as CSV, every page of it, with the list's filters. */
export const GET = withActor(async (actor, request) => {
  if (actor.kind !== 'admin') return forbidden();
  const filters = PayoutFilters.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!filters.success) return badRequest('Those filters are not valid.');
  return csvResponse<PayoutRow>(
    `payouts-${lagosToday()}.csv`,
    ['id', 'reference', 'customer', 'user_id', 'amount', 'currency', 'status', 'bank_name', 'account_number', 'account_name', 'created_at', 'paid_at', 'failed_at', 'reversed_at'],
    (p) => [p.id, p.reference, p.customer, p.user_id, p.amount, p.currency, p.status, p.bank_account.bank_name, p.bank_account.account_number, p.bank_account.account_name, p.created_at, p.paid_at, p.failed_at, p.reversed_at],
    async (page) => {
      const view = await payoutsView(actor, { ...filters.data, page }, 100);
      return view.kind === 'ok'
        ? { ok: true, rows: view.view.payouts, hasNextPage: view.view.pagination.hasNextPage }
        : { ok: false, message: view.kind === 'error' ? view.failure.message : 'Payouts were not found.' };
    },
  );
});
