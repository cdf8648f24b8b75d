import { Id } from '@/lib/contracts/common';
import { badRequest, forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { walletView } from '@/lib/server/dashboard/views';

/** A customer reads only its own wallet; an admin any customer's of its client (?user_id=). */
export const GET = withActor(async (actor, request) => {
  const search = new URL(request.url).searchParams;
  const page = Math.max(1, Number(search.get('page')) || 1);
  if (actor.kind === 'customer') return viewResponse(await walletView(actor, actor.escrowUserId, page), 'Wallet');
  if (actor.kind !== 'admin') return forbidden();
  const userId = Id.safeParse(search.get('user_id'));
  if (!userId.success) return badRequest('user_id must be a customer id.');
  return viewResponse(await walletView(actor, userId.data, page), 'Wallet');
});
