/** The integrator's own key-value pairs (docs/decisions.md §19): one schema and one set of limits for every record that carries them. */
import { z } from 'zod';
import { PlainText } from './common';

export const METADATA_MAX_KEYS = 20;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;

const keysMessage = `keys are 1 to ${METADATA_KEY_MAX} characters`;
const MetadataKey = PlainText().min(1, keysMessage).max(METADATA_KEY_MAX, keysMessage);
const MetadataValue = PlainText().max(METADATA_VALUE_MAX, `is at most ${METADATA_VALUE_MAX} characters`);
// A key that fails its limits is reported on its own path (metadata.<key>) with the key's message, not zod's "Invalid key in record".
const recordError = (issue: { code?: string }) => (issue.code === 'invalid_key' ? keysMessage : undefined);
const atMostKeys = (m: Record<string, unknown>) => Object.keys(m).length <= METADATA_MAX_KEYS;
const atMostKeysMessage = `has at most ${METADATA_MAX_KEYS} keys`;

/** Set on create: up to 20 keys of 1–40 characters, string values of up to 500; an empty value stores no key. */
export const Metadata = z
  .record(MetadataKey, MetadataValue, { error: recordError })
  .refine(atMostKeys, atMostKeysMessage)
  .meta({
    description: `your own labels, returned as given and never interpreted: up to ${METADATA_MAX_KEYS} keys of 1–${METADATA_KEY_MAX} characters, string values of up to ${METADATA_VALUE_MAX}`,
    example: { order_id: 'ORD-1042', channel: 'mobile' },
  });
export type Metadata = z.infer<typeof Metadata>;

/** A change: keys given with a value are set, keys set to null or "" are removed, keys not sent stay as they are. */
export const MetadataPatch = z
  .record(MetadataKey, MetadataValue.nullable(), { error: recordError })
  // The 20-key limit is on what is left (patchedMetadata); a change may remove all 20 and set 20 new ones.
  .refine((m) => Object.keys(m).length <= 2 * METADATA_MAX_KEYS, `names at most ${2 * METADATA_MAX_KEYS} keys`)
  .meta({
    description: `keys to set (string values of up to ${METADATA_VALUE_MAX} characters) or to remove (null or ""); keys not sent are kept. At most ${METADATA_MAX_KEYS} keys in all after the change`,
    example: { order_id: 'ORD-1042', coupon: null },
  });
export type MetadataPatch = z.infer<typeof MetadataPatch>;

/** What every record carries: the stored pairs, {} when none. */
export const MetadataRecord = z.record(z.string(), z.string()).meta({ description: 'your own labels, as you set them ({} when none)' });

/** The stored pairs a create keeps: an empty value means no key, as in a change. */
export function metadataToStore(metadata: Metadata | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata ?? {}).filter(([, value]) => value !== ''));
}

/** The pairs after a change, or the key count over the limit when the change would leave too many. */
export function mergeMetadata(stored: Record<string, string>, patch: MetadataPatch): { ok: true; metadata: Record<string, string> } | { ok: false; keys: number } {
  const merged: Record<string, string> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === '') delete merged[key];
    else merged[key] = value;
  }
  const keys = Object.keys(merged).length;
  return keys > METADATA_MAX_KEYS ? { ok: false, keys } : { ok: true, metadata: merged };
}
