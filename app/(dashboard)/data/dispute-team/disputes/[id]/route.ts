import { arbitrationView } from '@/lib/server/dashboard/dispute-team';
import { forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';

export const GET = withActor<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) => {
  if (actor.kind !== 'dispute_team') return forbidden();
  return viewResponse(await arbitrationView(actor, (await params).id), 'Dispute');
});
