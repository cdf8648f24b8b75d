import 'server-only';
import { ApiKeyListRecord, RollKeyBody, RolledKeyRecord } from '@/lib/contracts/keys';
import { listSecretKeys, rollSecretKey } from '@/lib/server/services/api-keys';
import { BASE_ERRORS, BODY_ERRORS, jsonBody, operation } from '../operation';
import { ok } from '../respond';
import { router } from '../router';
import { okShowingSecretOnce } from '../shown-once';

const listKeys = operation({
  method: 'get', path: '/keys', operationId: 'listKeys', tag: 'API keys', auth: 'client',
  summary: 'List your secret keys (never the keys themselves)',
  description: "Your public key and mode, and your secret keys newest first: each one's last 4 characters, when it was made and when it expires (null: never). Expired keys stay listed for 30 days.",
  response: ApiKeyListRecord,
  errors: BASE_ERRORS,
});

const rollKey = operation({
  method: 'post', path: '/keys/roll', operationId: 'rollKey', tag: 'API keys', auth: 'client',
  summary: 'Roll your secret key',
  description:
    'Returns a new secret key, shown once (only its hash is stored). Every key that works now keeps working for expires_in_hours (0 to 72, default 24; 0 revokes them at once), on every server from the moment this answers. An Idempotency-Key replay answers without the secret key.',
  request: { body: jsonBody(RollKeyBody) },
  example: { expires_in_hours: 24 },
  response: RolledKeyRecord,
  errors: BODY_ERRORS,
});

// Key expiry is real time, not a sandbox test clock's.
export const keyRoutes = router()
  .openapi(listKeys, async (c) => ok('API keys retrieved successfully', await listSecretKeys(c.var.db, c.var.client, new Date())))
  .openapi(rollKey, async (c) =>
    okShowingSecretOnce(
      c,
      'API key rolled: store the new secret key now, it is not shown again',
      await rollSecretKey(c.var.db, c.var.client, c.req.valid('json'), new Date()),
      'secret_key',
      'This roll was already done with this Idempotency-Key. The new secret key was shown once, in its first response, and is not stored: if it was lost, roll again with a new Idempotency-Key.',
    ),
  );
