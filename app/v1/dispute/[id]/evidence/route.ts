import { SubmitEvidenceBody } from '@/lib/contracts/disputes';
import { idParam, readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { submitEvidence } from '@/lib/server/services/dispute-process';

export const POST = withClient<{ id: string }>(async ({ db, client, request, params, now, baseUrl }) => {
  const disputeId = idParam(params.id, 'dispute_id');
  const body = await readJson(request, SubmitEvidenceBody);
  return ok('Evidence submitted', await submitEvidence(db, client, disputeId, body, now, baseUrl));
});
