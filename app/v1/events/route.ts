import { ListEventsQuery } from '@/lib/contracts/webhooks';
import { readQuery, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { listEvents } from '@/lib/server/services/events';

export const GET = withClient(async ({ db, client, request }) =>
  ok('Events retrieved successfully', await listEvents(db, client, readQuery(request, ListEventsQuery))),
);
