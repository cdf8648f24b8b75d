import { ListDisputesQuery } from '@/lib/contracts/disputes';
import { readQuery, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { listDisputes } from '@/lib/server/services/disputes';

export const GET = withClient(async ({ db, client, request, baseUrl }) =>
  ok('Disputes retrieved successfully', await listDisputes(db, client, readQuery(request, ListDisputesQuery), baseUrl)),
);
