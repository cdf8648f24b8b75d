import { CancelDisputeBody } from '@/lib/contracts/disputes';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { cancelDispute } from '@/lib/server/services/dispute-process';

export const PATCH = withClient<{ id: string }>(async ({ db, client, request, params, now, baseUrl }) => {
  const disputeId = idParam(params.id, 'dispute_id');
  const body = await readJson(request, CancelDisputeBody);
  return ok('Dispute withdrawn; the buyer has been refunded', await cancelDispute(db, client, disputeId, body, now, baseUrl));
});
