import { escrowFor } from '@/lib/server/escrow-client';
import { forbidden, json, withActor } from '@/lib/server/dashboard/route-json';

/** The customer's own balance, for the funding dialog as it opens: the transaction page loads without it. */
export const GET = withActor(async (actor) => {
  if (actor.kind !== 'customer') return forbidden();
  const wallet = await escrowFor(actor).call('GET /wallets/:user_id', { param: { user_id: actor.escrowUserId } });
  if (!wallet.ok) return json(wallet.status === 404 ? 404 : 502, { message: wallet.status === 404 ? 'Wallet was not found.' : wallet.message });
  return json(200, { balance: wallet.data.balance });
});
