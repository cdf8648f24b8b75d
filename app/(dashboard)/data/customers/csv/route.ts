import { CustomerFilters, type CustomersView } from '@/lib/contracts/dashboard';
import { csvResponse, lagosToday } from '@/lib/server/dashboard/csv';
import { badRequest, forbidden, withActor } from '@/lib/server/dashboard/route-json';
import { customersView } from '@/lib/server/dashboard/views';

/** The admin's (or viewer's) customers list as CSV, every page of it, with the list's filters. */
export const GET = withActor(async (actor, request) => {
  if (actor.kind !== 'admin') return forbidden();
  const filters = CustomerFilters.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!filters.success) return badRequest('Those filters are not valid.');
  return csvResponse<CustomersView['customers'][number]>(
    `customers-${lagosToday()}.csv`,
    ['id', 'first_name', 'last_name', 'email', 'phone', 'dashboard_access', 'is_active', 'created_at'],
    ({ user, access }) => [user.id, user.first_name, user.last_name, user.email, user.phone, access, user.is_active ? 'yes' : 'no', user.created_at],
    async (page) => {
      const view = await customersView(actor, { ...filters.data, page }, 100);
      return view.kind === 'ok'
        ? { ok: true, rows: view.view.customers, hasNextPage: view.view.pagination.hasNextPage }
        : { ok: false, message: view.kind === 'error' ? view.failure.message : 'Customers were not found.' };
    },
  );
});
