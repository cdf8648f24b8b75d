'use client';

import { useCallback, useState } from 'react';

/** Random and URL-safe; works outside secure contexts too (crypto.randomUUID needs https or localhost). */
export function newIntentKey(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One key per user intent: kept while a form is open so a double submit or a retry after a network error
 * sends the same key; renewed once the intent has succeeded.
 */
export function useIntentKey(): [string, () => void] {
  const [key, setKey] = useState(newIntentKey);
  const renew = useCallback(() => setKey(newIntentKey()), []);
  return [key, renew];
}
