import { idParam, withOperator } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { operatorDispute } from '@/lib/server/services/dispute-process';

export const GET = withOperator<{ id: string }>(async ({ db, params, baseUrl }) =>
  ok('Dispute retrieved successfully', await operatorDispute(db, idParam(params.id, 'dispute_id'), baseUrl)),
);
