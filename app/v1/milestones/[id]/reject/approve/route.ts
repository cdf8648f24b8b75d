import { SellerActionBody } from '@/lib/contracts/milestones';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { approveReturn } from '@/lib/server/services/approve-return';
import { presentMilestone } from '@/lib/server/services/milestones';

export const PATCH = withClient<{ id: string }>(async ({ db, client, request, params, now }) => {
  const milestoneId = idParam(params.id, 'milestone_id');
  const body = await readJson(request, SellerActionBody);
  const graph = await approveReturn(db, client, milestoneId, body.seller_id, now);
  return ok('Return approved; funds reimbursed to the buyer', presentMilestone(graph, milestoneId));
});
