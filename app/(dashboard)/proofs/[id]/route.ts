import { Id } from '@/lib/contracts/common';
import { escrow } from '@/lib/server/escrow-client';
import { disputeFor, milestoneFor } from '@/lib/server/dashboard/ownership';
import { teamDispute } from '@/lib/server/dashboard/dispute-team';
import { json, withActor } from '@/lib/server/dashboard/route-json';
import { fileIdOfProof } from '@/lib/contracts/dashboard';

const notFound = () => json(404, { message: 'File not found.' });

/**
 * Proof files, fetched with the API key on the server and passed on only to a party of a milestone whose
 * proofs include the file (or an admin of the client). ?milestone= names the milestone to check against;
 * ?dispute= a dispute whose evidence includes it (parties see both sides' evidence, as does the dispute team).
 */
export const GET = withActor<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const fileId = Id.safeParse((await params).id);
  const query = new URL(request.url).searchParams;
  const milestoneId = Id.safeParse(query.get('milestone'));
  const disputeId = Id.safeParse(query.get('dispute'));
  if (!fileId.success) return notFound();
  if (disputeId.success && actor.kind !== 'admin') {
    let record;
    if (actor.kind === 'dispute_team') {
      const dispute = await teamDispute(actor, disputeId.data);
      record = dispute.kind === 'ok' ? dispute.view : null;
    } else {
      const dispute = await disputeFor(actor, disputeId.data);
      record = dispute.kind === 'ok' ? dispute.record : null;
    }
    if (!record?.evidence.some((e) => e.files.some((f) => fileIdOfProof(f.url) === fileId.data))) return notFound();
  } else if (actor.kind === 'dispute_team') {
    return notFound();
  } else if (actor.kind === 'customer') {
    if (!milestoneId.success) return notFound();
    const owned = await milestoneFor(actor, milestoneId.data);
    if (owned.kind !== 'ok') return notFound();
    const proofs = [...owned.record.proofs_of_completion, ...owned.record.proofs_of_return];
    if (!proofs.some((url) => fileIdOfProof(url) === fileId.data)) return notFound();
  }
  const upstream = await escrow.files.read(fileId.data);
  if (!upstream.ok || !upstream.body) return notFound();
  const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
  return new Response(upstream.body, {
    headers: {
      'content-type': type,
      'content-disposition': upstream.headers.get('content-disposition') ?? 'inline',
      'x-content-type-options': 'nosniff',
      // A proof is someone's upload: never let it run script in our origin, even if it is an SVG or HTML.
      'content-security-policy': "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
      'cache-control': 'private, max-age=300',
    },
  });
});
