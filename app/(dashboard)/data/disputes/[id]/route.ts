import { viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { disputeView } from '@/lib/server/dashboard/views';

export const GET = withActor<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  viewResponse(await disputeView(actor, (await params).id), 'Dispute'),
);
