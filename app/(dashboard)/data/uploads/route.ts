import { Id } from '@/lib/contracts/common';
import { MAX_UPLOAD_BYTES } from '@/lib/contracts/files';
import { IdempotencyKey } from '@/lib/contracts/dashboard';
import { escrowFor } from '@/lib/server/escrow-client';
import { AppError } from '@/lib/server/app-error';
import { readBodyBytes } from '@/lib/server/http/body';
import { disputeFor, milestoneFor } from '@/lib/server/dashboard/ownership';
import { badRequest, json, withActor } from '@/lib/server/dashboard/route-json';

/**
 * Proof uploads, forwarded to POST /v1/files. A route rather than a server action: actions cap bodies at
 * 1 MB unless next.config raises it, and proofs may be 10 MB. Only the party about to use the proof may
 * upload it: the seller of a milestone it may deliver, the buyer of one it may reject, or either party of a
 * dispute that takes its evidence now (dispute_id instead of milestone_id). The body is read through the
 * limited reader, so a body of undeclared length stops at the limit too (a declared excess never gets here:
 * scripts/serve.ts answers it).
 */
const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;

export const POST = withActor(async (actor, request) => {
  let form: FormData;
  try {
    const body = await readBodyBytes(request, UPLOAD_BODY_LIMIT);
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData();
  } catch (error) {
    if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') return json(413, { message: `Files are limited to ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB.` });
    return badRequest('Send the file as multipart/form-data.');
  }
  const milestoneId = Id.safeParse(form.get('milestone_id'));
  const disputeId = Id.safeParse(form.get('dispute_id'));
  const key = IdempotencyKey.safeParse(form.get('idempotency_key'));
  const file = form.get('file');
  if ((!milestoneId.success && !disputeId.success) || !key.success || !(file instanceof File)) return badRequest('Choose a file to upload.');
  if (actor.kind !== 'customer') return json(403, { message: 'Only the buyer or the seller uploads proofs.' });
  if (disputeId.success) {
    const owned = await disputeFor(actor, disputeId.data);
    if (owned.kind !== 'ok') return json(404, { message: 'Dispute was not found.' });
    const mine = owned.viewer === 'buyer' || owned.viewer === 'seller' ? owned.record.allowed_actions[owned.viewer] : [];
    if (!mine.includes('submit_evidence')) return json(409, { message: 'This dispute is not taking evidence from you.' });
  } else if (milestoneId.success) {
    const owned = await milestoneFor(actor, milestoneId.data);
    if (owned.kind !== 'ok') return json(404, { message: 'Milestone was not found.' });
    const allowed = owned.record.allowed_actions;
    const may = owned.viewer === 'seller' ? allowed.seller.includes('deliver') : owned.viewer === 'buyer' && allowed.buyer.includes('reject');
    if (!may) return json(409, { message: 'This milestone is not waiting for a proof from you.' });
  }
  const result = await escrowFor(actor).uploadFile(file, key.data);
  if (!result.ok) return json(result.status >= 500 ? 502 : result.status, { message: result.message });
  return json(200, { message: result.message, file: { id: result.data.id, url: result.data.url, filename: result.data.filename, content_type: result.data.content_type, size: result.data.size } });
});
