import { isDisputeDesk } from '@/lib/server/dashboard/actor';
import { arbitrationQueue } from '@/lib/server/dashboard/dispute-team';
import { forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';

export const GET = withActor(async (actor, request) => {
  if (!isDisputeDesk(actor)) return forbidden();
  const page = Math.max(1, Number.parseInt(new URL(request.url).searchParams.get('page') ?? '1', 10) || 1);
  return viewResponse(await arbitrationQueue(actor, page), 'Queue');
});
