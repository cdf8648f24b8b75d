import { FundMilestoneBody } from '@/lib/contracts/transactions';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { fundMilestone } from '@/lib/server/services/fund-milestone';
import { presentMilestone } from '@/lib/server/services/milestones';

export const POST = withClient<{ id: string }>(async ({ db, client, request, params, now }) => {
  const milestoneId = idParam(params.id, 'milestone_id');
  const body = await readJson(request, FundMilestoneBody);
  const graph = await fundMilestone(db, client, milestoneId, body.buyer_id, now);
  return ok('Milestone funded successfully', presentMilestone(graph, milestoneId));
});
