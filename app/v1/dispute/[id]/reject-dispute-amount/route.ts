import { RejectDisputeAmountBody } from '@/lib/contracts/disputes';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { rejectDisputeAmount } from '@/lib/server/services/answer-dispute-amount';

export const PATCH = withClient<{ id: string }>(async ({ db, client, request, params, now, baseUrl }) => {
  const disputeId = idParam(params.id, 'dispute_id');
  const body = await readJson(request, RejectDisputeAmountBody);
  return ok('Dispute amount rejected; the seller may propose another amount', await rejectDisputeAmount(db, client, disputeId, body, now, baseUrl));
});
