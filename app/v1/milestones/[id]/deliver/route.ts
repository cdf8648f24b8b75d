import { DeliverBody } from '@/lib/contracts/milestones';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { deliverMilestone } from '@/lib/server/services/deliver-milestone';
import { presentMilestone } from '@/lib/server/services/milestones';

export const POST = withClient<{ id: string }>(async ({ db, client, request, params, now, baseUrl }) => {
  const milestoneId = idParam(params.id, 'milestone_id');
  const body = await readJson(request, DeliverBody);
  const graph = await deliverMilestone(db, client, milestoneId, body, now, baseUrl);
  return ok('Milestone delivered successfully; it is now under inspection', presentMilestone(graph, milestoneId));
});
