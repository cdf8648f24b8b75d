import { CreateClientBody } from '@/lib/contracts/operator';
import { readJson, withOperator } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { okShowingSecretOnce } from '@/lib/server/http/shown-once';
import { createClient, listClients } from '@/lib/server/services/create-client';

export const GET = withOperator(async ({ db }) => ok('Clients retrieved successfully', await listClients(db)));

export const POST = withOperator(async ({ db, request, now }) => {
  const body = await readJson(request, CreateClientBody);
  return okShowingSecretOnce(
    'Client created. Store the secret key now: it is not shown again.',
    await createClient(db, body, now),
    'secret_key',
    'Client already created by the first request with this Idempotency-Key. Its secret key was shown only in that answer and is not kept (only its hash is), so secret_key is null here; if it was lost, create a new client.',
  );
});
