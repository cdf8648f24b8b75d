import { CreateClientBody } from '@/lib/contracts/operator';
import { readJson, withOperator } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { createClient, listClients } from '@/lib/server/services/create-client';

export const GET = withOperator(async ({ db }) => ok('Clients retrieved successfully', await listClients(db)));

export const POST = withOperator(async ({ db, request, now }) => {
  const body = await readJson(request, CreateClientBody);
  return ok('Client created. Store the secret key now: it is not shown again.', await createClient(db, body, now));
});
