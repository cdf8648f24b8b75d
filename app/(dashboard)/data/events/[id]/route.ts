import { forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { deliveryPayloadView } from '@/lib/server/dashboard/webhooks';

/** A webhook delivery's body, for the admin's payload viewer. */
export const GET = withActor<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) => {
  if (actor.kind !== 'admin') return forbidden();
  return viewResponse(await deliveryPayloadView(actor, (await params).id), 'Event');
});
