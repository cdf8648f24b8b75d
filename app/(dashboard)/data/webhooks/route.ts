import { forbidden, viewResponse, withActor } from '@/lib/server/dashboard/route-json';
import { webhooksView } from '@/lib/server/dashboard/webhooks';

export const GET = withActor(async (actor) => (actor.kind === 'admin' ? viewResponse(await webhooksView(actor), 'Webhook endpoints') : forbidden()));
