import { sessionEnded } from './session-ended';

/** GET a same-origin JSON route; a non-2xx answer becomes an Error carrying the server's message. */
export async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  if (!response.ok) {
    // Signed out meanwhile: the person signs in again over the page, keeping what is on it.
    if (response.status === 401 && typeof window !== 'undefined') sessionEnded.signal();
    throw new Error(body?.message ?? `Request failed (${response.status})`);
  }
  return body as T;
}
