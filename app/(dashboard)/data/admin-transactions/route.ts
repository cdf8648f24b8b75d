import { TransactionFilters } from '@/lib/contracts/dashboard';
import { escrowFor } from '@/lib/server/escrow-client';
import { badRequest, forbidden, json, withActor } from '@/lib/server/dashboard/route-json';

export const GET = withActor(async (actor, request) => {
  if (actor.kind !== 'admin') return forbidden();
  const filters = TransactionFilters.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!filters.success) return badRequest('Those filters are not valid.');
  const { page, status, user_id } = filters.data;
  const result = await escrowFor(actor).transactions.list({ page, limit: 20, sort: 'DESC', ...(status ? { status } : {}), ...(user_id ? { user_id } : {}) });
  return result.ok ? json(200, result.data) : json(result.status === 400 ? 400 : 502, { message: result.message });
});
