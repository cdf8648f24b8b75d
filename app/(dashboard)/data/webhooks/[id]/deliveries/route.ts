import { forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { deliveriesView } from '@/lib/server/dashboard/webhooks';

export const GET = withActor<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  if (actor.kind !== 'admin') return forbidden();
  const page = Math.max(1, Math.min(10_000, Number(new URL(request.url).searchParams.get('page')) || 1));
  return viewResponse(await deliveriesView(actor, (await params).id, page), 'Webhook endpoint');
});
