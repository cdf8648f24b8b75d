import 'server-only';
import { mergeMetadata, METADATA_MAX_KEYS, type MetadataPatch } from '@/lib/contracts/metadata';
import { AppError } from '../app-error';

/** The stored pairs after a PATCH's change (docs/decisions.md §19); a change that would leave more than 20 keys is 400 and changes nothing. */
export function patchedMetadata(stored: Record<string, string>, patch: MetadataPatch): Record<string, string> {
  const merged = mergeMetadata(stored, patch);
  if (merged.ok) return merged.metadata;
  const message = `has at most ${METADATA_MAX_KEYS} keys: this change would leave ${merged.keys} (set keys to null or "" to remove them)`;
  throw new AppError('VALIDATION_ERROR', `Invalid request: metadata ${message}.`, [{ field: 'metadata', message }]);
}
