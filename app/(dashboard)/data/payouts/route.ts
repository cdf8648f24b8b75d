import { PayoutFilters } from '@/lib/contracts/dashboard-payouts';
import { badRequest, forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { payoutsView } from '@/lib/server/dashboard/payouts';

/** A customer reads only its own payouts (any user_id it sends is ignored); an admin any customer's of its client. */
export const GET = withActor(async (actor, request) => {
  if (!('clientId' in actor)) return forbidden();
  const filters = PayoutFilters.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!filters.success) return badRequest('Those filters are not valid.');
  return viewResponse(await payoutsView(actor, filters.data), 'Payouts');
});
