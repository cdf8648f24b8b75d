import { AddDisputeAmountBody } from '@/lib/contracts/disputes';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { addDisputeAmount } from '@/lib/server/services/add-dispute-amount';

export const PATCH = withClient<{ id: string }>(async ({ db, client, request, params, now, baseUrl }) => {
  const disputeId = idParam(params.id, 'dispute_id');
  const body = await readJson(request, AddDisputeAmountBody);
  return ok('Dispute amount submitted; the buyer has been notified', await addDisputeAmount(db, client, disputeId, body, now, baseUrl));
});
