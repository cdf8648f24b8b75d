import { Id } from '@/lib/contracts/common';
import { escrow } from '@/lib/server/escrow-client';
import { forbidden, json, withActor } from '@/lib/server/dashboard/route-json';

export const GET = withActor(async (actor, request) => {
  if (actor.kind !== 'admin') return forbidden();
  const search = new URL(request.url).searchParams;
  const page = Math.max(1, Number(search.get('page')) || 1);
  const userId = Id.safeParse(search.get('user_id'));
  const result = await escrow.banks.listAccounts({ page, limit: 20, sort: 'DESC', ...(userId.success ? { user_id: userId.data } : {}) });
  return result.ok ? json(200, result.data) : json(502, { message: result.message });
});
