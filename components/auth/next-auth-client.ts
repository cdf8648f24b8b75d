'use client';

/**
 * The two next-auth endpoints the dashboard calls, with relative URLs (next-auth/react would build
 * absolute ones from NEXTAUTH_URL, which this app does not require).
 */
async function csrfToken(): Promise<string> {
  const response = await fetch('/api/auth/csrf', { cache: 'no-store' });
  const body = (await response.json()) as { csrfToken: string };
  return body.csrfToken;
}

async function post(path: string, fields: Record<string, string>): Promise<{ url?: string }> {
  const body = new URLSearchParams({ ...fields, csrfToken: await csrfToken(), json: 'true' });
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  return (await response.json().catch(() => ({}))) as { url?: string };
}

export async function signInWithPassword(email: string, password: string, callbackUrl: string): Promise<{ ok: boolean; error?: string }> {
  const result = await post('/api/auth/callback/credentials', { email, password, callbackUrl });
  const error = result.url ? new URL(result.url, window.location.origin).searchParams.get('error') : 'NoResponse';
  return error ? { ok: false, error } : { ok: true };
}

export async function signOut(): Promise<void> {
  await post('/api/auth/signout', { callbackUrl: '/login' });
}
