import { isDisputeDesk } from '@/lib/server/dashboard/actor';
import { arbitrationView } from '@/lib/server/dashboard/dispute-team';
import { forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';

export const GET = withActor<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) => {
  if (!isDisputeDesk(actor)) return forbidden();
  return viewResponse(await arbitrationView(actor, (await params).id), 'Dispute');
});
