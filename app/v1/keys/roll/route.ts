import { RollKeyBody } from '@/lib/contracts/keys';
import { readJson, withClient } from '@/lib/server/http/route';
import { okShowingSecretOnce } from '@/lib/server/http/shown-once';
import { rollSecretKey } from '@/lib/server/services/api-keys';

// Key expiry is real time, not a sandbox test clock's.
export const POST = withClient(async ({ db, client, request }) =>
  okShowingSecretOnce(
    'API key rolled: store the new secret key now, it is not shown again',
    await rollSecretKey(db, client, await readJson(request, RollKeyBody), new Date()),
    'secret_key',
    'This roll was already done with this Idempotency-Key. The new secret key was shown once, in its first response, and is not stored: if it was lost, roll again with a new Idempotency-Key.',
  ),
);
