import { EscalateDisputeBody } from '@/lib/contracts/disputes';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { actorOf, escalateDispute } from '@/lib/server/services/dispute-process';

export const PATCH = withClient<{ id: string }>(async ({ db, client, request, params, now, baseUrl }) => {
  const disputeId = idParam(params.id, 'dispute_id');
  const body = await readJson(request, EscalateDisputeBody);
  return ok('Dispute escalated; evidence submission is open', await escalateDispute(db, client, disputeId, actorOf(body), now, baseUrl));
});
