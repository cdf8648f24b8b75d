import { forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { customersView } from '@/lib/server/dashboard/views';

export const GET = withActor(async (actor, request) => {
  if (actor.kind !== 'admin') return forbidden();
  const search = new URL(request.url).searchParams;
  const page = Math.max(1, Number(search.get('page')) || 1);
  const term = search.get('search')?.trim().slice(0, 100) || undefined;
  return viewResponse(await customersView(actor, { page, ...(term ? { search: term } : {}) }), 'Customers');
});
