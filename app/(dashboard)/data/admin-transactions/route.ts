import { TransactionFilters } from '@/lib/contracts/dashboard';
import { badRequest, forbidden, json, withActor } from '@/lib/server/dashboard/route-json';
import { adminTransactions } from '@/lib/server/dashboard/views';

export const GET = withActor(async (actor, request) => {
  if (actor.kind !== 'admin') return forbidden();
  const filters = TransactionFilters.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!filters.success) return badRequest('Those filters are not valid.');
  const result = await adminTransactions(actor, filters.data);
  return result.ok ? json(200, result.data) : json(result.status === 400 ? 400 : 502, { message: result.message });
});
