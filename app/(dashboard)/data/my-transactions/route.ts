import { forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { myTransactions } from '@/lib/server/dashboard/views';

export const GET = withActor(async (actor, request) => {
  if (actor.kind !== 'customer') return forbidden();
  const page = Math.max(1, Number(new URL(request.url).searchParams.get('page')) || 1);
  return viewResponse(await myTransactions(actor, page), 'Your transactions');
});
