import { idParam, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { getMilestone } from '@/lib/server/services/milestones';

export const GET = withClient<{ id: string }>(async ({ db, client, params }) =>
  ok('Milestone retrieved successfully', await getMilestone(db, client, idParam(params.id, 'milestone_id'))),
);
