import { VerdictBody } from '@/lib/contracts/disputes';
import { idParam, readJson, withOperator } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { decideVerdict } from '@/lib/server/services/dispute-process';

export const POST = withOperator<{ id: string }>(async ({ db, request, params, baseUrl }) => {
  const disputeId = idParam(params.id, 'dispute_id');
  const body = await readJson(request, VerdictBody);
  return ok('Verdict recorded; the escrow has been split', await decideVerdict(db, disputeId, body, baseUrl));
});
