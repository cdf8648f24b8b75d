import { CustomerFilters } from '@/lib/contracts/dashboard';
import { badRequest, forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { customersView } from '@/lib/server/dashboard/views';

export const GET = withActor(async (actor, request) => {
  if (actor.kind !== 'admin') return forbidden();
  const filters = CustomerFilters.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!filters.success) return badRequest('Those filters are not valid.');
  return viewResponse(await customersView(actor, filters.data), 'Customers');
});
