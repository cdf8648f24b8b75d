import { viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { transactionView } from '@/lib/server/dashboard/views';

export const GET = withActor<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  viewResponse(await transactionView(actor, (await params).id), 'Transaction'),
);
