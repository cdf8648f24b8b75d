import { escrowFor } from '@/lib/server/escrow-client';
import { forbidden, json, withActor } from '@/lib/server/dashboard/route-json';

/** The banks an admin's bank account form offers, asked for when the person reaches for the form. */
export const GET = withActor(async (actor) => {
  if (actor.kind !== 'admin') return forbidden();
  const banks = await escrowFor(actor).call('GET /wallets/banks');
  return banks.ok ? json(200, banks.data) : json(banks.status, { message: banks.message });
});
