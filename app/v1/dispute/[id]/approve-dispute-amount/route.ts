import { ApproveDisputeAmountBody } from '@/lib/contracts/disputes';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { approveDisputeAmount } from '@/lib/server/services/answer-dispute-amount';

export const PATCH = withClient<{ id: string }>(async ({ db, client, request, params, now, baseUrl }) => {
  const disputeId = idParam(params.id, 'dispute_id');
  const body = await readJson(request, ApproveDisputeAmountBody);
  return ok('Dispute amount approved; the dispute is resolved', await approveDisputeAmount(db, client, disputeId, body.buyer_id, now, baseUrl));
});
