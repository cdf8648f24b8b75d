import { Id } from '@/lib/contracts/common';
import { escrow } from '@/lib/server/escrow-client';
import { milestoneFor } from '@/lib/server/dashboard/ownership';
import { json, withActor } from '@/lib/server/dashboard/route-json';
import { fileIdOfProof } from '@/lib/contracts/dashboard';

const notFound = () => json(404, { message: 'File not found.' });

/**
 * Proof files, fetched with the API key on the server and passed on only to a party of a milestone whose
 * proofs include the file (or an admin of the client). ?milestone= names the milestone to check against.
 */
export const GET = withActor<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const fileId = Id.safeParse((await params).id);
  const milestoneId = Id.safeParse(new URL(request.url).searchParams.get('milestone'));
  if (!fileId.success) return notFound();
  if (actor.kind === 'customer') {
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
