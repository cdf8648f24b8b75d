import { Id } from '@/lib/contracts/common';
import type { OperatorDispute } from '@/lib/contracts/dashboard-disputes';
import { escrowFor, operatorEscrow } from '@/lib/server/escrow-client';
import { disputeFor, milestoneFor } from '@/lib/server/dashboard/ownership';
import { isDisputeDesk } from '@/lib/server/dashboard/actor';
import { teamDispute } from '@/lib/server/dashboard/dispute-team';
import { json, withActor } from '@/lib/server/dashboard/route-json';
import { proofTokenSecondsLeft } from '@/lib/server/dashboard/proof-links';
import { fileIdOfProof } from '@/lib/contracts/dashboard';

const notFound = () => json(404, { message: 'File not found.' });

const inEvidence = (dispute: { evidence: Array<{ files: Array<{ url: string }> }> }, fileId: string) =>
  dispute.evidence.some((e) => e.files.some((f) => fileIdOfProof(f.url) === fileId));

/** The dispute desk weighs the parties' evidence and the disputed milestone's proofs of delivery and return. */
const inCase = (dispute: OperatorDispute, fileId: string) =>
  inEvidence(dispute, fileId) || [...dispute.milestone.proofs_of_completion, ...dispute.milestone.proofs_of_return].some((url) => fileIdOfProof(url) === fileId);

/**
 * Proof files, fetched with an API key on the server and passed on only to a party of a milestone whose
 * proofs include the file (or an admin of the client). ?milestone= names the milestone to check against;
 * ?dispute= a dispute whose evidence includes it (parties see both sides' evidence). The dispute desk reads
 * with the operator key (it holds no client's key), a file of a case within its reach: the evidence or the
 * disputed milestone's proofs. ?t= is a page's signed link (proof-links.ts): the page has checked, so only the file is read.
 */
export const GET = withActor<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const fileId = Id.safeParse((await params).id);
  const query = new URL(request.url).searchParams;
  const milestoneId = Id.safeParse(query.get('milestone'));
  const disputeId = Id.safeParse(query.get('dispute'));
  if (!fileId.success) return notFound();
  const token = query.get('t');
  if (token !== null) {
    // The page that linked it has just read the record holding this file for this viewer: no second read of it here.
    const secondsLeft = proofTokenSecondsLeft(actor, fileId.data, token, new Date());
    if (secondsLeft === null) return notFound();
    const upstream = isDisputeDesk(actor) ? await operatorEscrow.readFile(fileId.data) : await escrowFor({ clientId: actor.clientId }).readFile(fileId.data);
    // A file never changes under its id: the browser keeps it for as long as the link works.
    return proofResponse(upstream, `private, max-age=${secondsLeft}, immutable`);
  }
  let upstream: Response;
  if (isDisputeDesk(actor)) {
    if (!disputeId.success) return notFound();
    const dispute = await teamDispute(actor, disputeId.data);
    if (dispute.kind !== 'ok' || !inCase(dispute.view, fileId.data)) return notFound();
    upstream = await operatorEscrow.readFile(fileId.data);
  } else {
    // The signed-in person's own client's key: a file of another client is not found.
    if (disputeId.success && actor.kind === 'customer') {
      const dispute = await disputeFor(actor, disputeId.data);
      if (dispute.kind !== 'ok' || !inEvidence(dispute.record, fileId.data)) return notFound();
    } else if (actor.kind === 'customer') {
      if (!milestoneId.success) return notFound();
      const owned = await milestoneFor(actor, milestoneId.data);
      if (owned.kind !== 'ok') return notFound();
      const proofs = [...owned.record.proofs_of_completion, ...owned.record.proofs_of_return];
      if (!proofs.some((url) => fileIdOfProof(url) === fileId.data)) return notFound();
    }
    upstream = await escrowFor({ clientId: actor.clientId }).readFile(fileId.data);
  }
  return proofResponse(upstream, 'private, max-age=300');
});

function proofResponse(upstream: Response, cacheControl: string): Response {
  if (!upstream.ok || !upstream.body) return notFound();
  const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
  return new Response(upstream.body, {
    headers: {
      'content-type': type,
      'content-disposition': upstream.headers.get('content-disposition') ?? 'inline',
      'x-content-type-options': 'nosniff',
      // A proof is someone's upload: never let it run script in our origin, even if it is an SVG or HTML.
      'content-security-policy': "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
      'cache-control': cacheControl,
    },
  });
}
