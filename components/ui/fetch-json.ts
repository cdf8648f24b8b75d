/** GET a same-origin JSON route; a non-2xx answer becomes an Error carrying the server's message. */
export async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  if (!response.ok) {
    // Signed out meanwhile: reloading lets the page's own session check send the person to sign in.
    if (response.status === 401 && typeof window !== 'undefined') window.location.reload();
    throw new Error(body?.message ?? `Request failed (${response.status})`);
  }
  return body as T;
}
