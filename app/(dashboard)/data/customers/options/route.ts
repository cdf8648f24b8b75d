import { forbidden, json, withActor } from '@/lib/server/dashboard/route-json';
import { customerOptions } from '@/lib/server/dashboard/options';

/** The customers an admin's pickers offer, asked for when the person reaches for one (?purpose=new_deal: active only). */
export const GET = withActor(async (actor, request) => {
  if (actor.kind !== 'admin') return forbidden();
  const purpose = new URL(request.url).searchParams.get('purpose') === 'new_deal' ? 'new_deal' : 'any';
  return json(200, await customerOptions(actor, purpose));
});
