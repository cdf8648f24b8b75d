import { Id } from '@/lib/contracts/common';
import { escrowFor } from '@/lib/server/escrow-client';
import { forbidden, json, viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { myBankAccounts } from '@/lib/server/dashboard/payouts';

/** An admin reads every saved account of its client (?user_id= for one customer's); a customer only its own. */
export const GET = withActor(async (actor, request) => {
  if (actor.kind === 'customer') return viewResponse(await myBankAccounts(actor, actor.escrowUserId), 'Bank accounts');
  if (actor.kind !== 'admin') return forbidden();
  const search = new URL(request.url).searchParams;
  const page = Math.max(1, Number(search.get('page')) || 1);
  const userId = Id.safeParse(search.get('user_id'));
  const result = await escrowFor(actor).call('GET /wallets/banks/list', { query: { page, limit: 20, sort: 'DESC', ...(userId.success ? { user_id: userId.data } : {}) } });
  return result.ok ? json(200, result.data) : json(502, { message: result.message });
});
