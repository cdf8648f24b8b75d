/** Secret keys (docs/decisions.md §2, §14): request and response schemas for /v1/keys. */
import { z } from 'zod';
import { Id, NullableTimestamp, Timestamp, unlessMissing } from './common';
import { MAX_KEY_OVERLAP_HOURS } from './dashboard-plain';

export { MAX_KEY_OVERLAP_HOURS } from './dashboard-plain';

export const RollKeyBody = z.strictObject({
  expires_in_hours: z
    .number({ error: unlessMissing(`must be a whole number of hours from 0 to ${MAX_KEY_OVERLAP_HOURS}`) })
    .int(`must be a whole number of hours from 0 to ${MAX_KEY_OVERLAP_HOURS}`)
    .min(0, `must be a whole number of hours from 0 to ${MAX_KEY_OVERLAP_HOURS}`)
    .max(MAX_KEY_OVERLAP_HOURS, `must be a whole number of hours from 0 to ${MAX_KEY_OVERLAP_HOURS}`)
    .optional()
    .default(24)
    .meta({ description: 'How long the keys that work now keep working: 0 revokes them at once. Default 24.', example: 24 }),
});
export type RollKeyBody = z.infer<typeof RollKeyBody>;

export const ApiKeyRecord = z
  .object({
    id: Id,
    last4: z.string().meta({ description: 'the last 4 characters of the key: only a hash of the key is stored' }),
    created_at: Timestamp,
    expires_at: NullableTimestamp.meta({ description: 'when the key stops working; null: it does not expire' }),
    expired: z.boolean(),
  })
  .strict();

export const ApiKeyListRecord = z
  .object({
    client_id: Id.meta({ description: 'the client these keys belong to' }),
    public_key: z.string().meta({ description: "the client's public key, safe to show anywhere" }),
    mode: z.enum(['test', 'live']),
    keys: z.array(ApiKeyRecord),
  })
  .strict();

export const RolledKeyRecord = ApiKeyRecord.extend({
  secret_key: z
    .string()
    .nullable()
    .meta({ description: 'the new secret key, shown once: null when an Idempotency-Key replays the roll' }),
  previous_keys_expire_at: Timestamp.meta({ description: 'when the keys that worked before this roll stop working' }),
}).strict();
