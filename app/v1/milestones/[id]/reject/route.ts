import { RejectDeliveryBody } from '@/lib/contracts/milestones';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { presentMilestone } from '@/lib/server/services/milestones';
import { rejectDelivery } from '@/lib/server/services/reject-delivery';

export const POST = withClient<{ id: string }>(async ({ db, client, request, params, now, baseUrl }) => {
  const milestoneId = idParam(params.id, 'milestone_id');
  const body = await readJson(request, RejectDeliveryBody);
  const graph = await rejectDelivery(db, client, milestoneId, body, now, baseUrl);
  return ok('Delivery rejected; waiting for the seller to answer the return', presentMilestone(graph, milestoneId));
});
