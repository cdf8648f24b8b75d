import { BuyerActionBody } from '@/lib/contracts/milestones';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { approveDelivery } from '@/lib/server/services/approve-delivery';
import { presentMilestone } from '@/lib/server/services/milestones';

export const POST = withClient<{ id: string }>(async ({ db, client, request, params, now }) => {
  const milestoneId = idParam(params.id, 'milestone_id');
  const body = await readJson(request, BuyerActionBody);
  const graph = await approveDelivery(db, client, milestoneId, body.buyer_id, now);
  return ok('Delivery accepted; funds released to the seller', presentMilestone(graph, milestoneId));
});
