import { idParam, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { getDispute } from '@/lib/server/services/disputes';

export const GET = withClient<{ id: string }>(async ({ db, client, params, baseUrl }) =>
  ok('Dispute retrieved successfully', await getDispute(db, client, idParam(params.id, 'dispute_id'), baseUrl)),
);
