import { CreateDisputeBody } from '@/lib/contracts/disputes';
import { readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { createDispute } from '@/lib/server/services/create-dispute';

export const POST = withClient(async ({ db, client, request, now, baseUrl }) =>
  ok('Dispute created; intra-party mediation has started', await createDispute(db, client, await readJson(request, CreateDisputeBody), now, baseUrl)),
);
