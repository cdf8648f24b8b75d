import { SellerActionBody } from '@/lib/contracts/milestones';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { disapproveReturn } from '@/lib/server/services/disapprove-return';
import { presentMilestone } from '@/lib/server/services/milestones';

export const PATCH = withClient<{ id: string }>(async ({ db, client, request, params, now }) => {
  const milestoneId = idParam(params.id, 'milestone_id');
  const body = await readJson(request, SellerActionBody);
  const graph = await disapproveReturn(db, client, milestoneId, body.seller_id, now);
  return ok('Return rejected; the seller may open a dispute', presentMilestone(graph, milestoneId));
});
