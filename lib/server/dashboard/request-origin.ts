import 'server-only';
import { headers } from 'next/headers';

/**
 * The origin the person's browser reached the dashboard at, for links that must bring the browser back here (a
 * payment page's callback_url): the Origin header a Server Action carries, which Next checks against the host,
 * else the host the request was addressed to.
 */
export async function requestOrigin(): Promise<string | null> {
  const h = await headers();
  const sent = h.get('origin');
  if (sent && URL.canParse(sent)) return new URL(sent).origin;
  const host = h.get('x-forwarded-host') ?? h.get('host');
  if (!host) return null;
  const proto = h.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https' ? 'https' : 'http';
  return URL.canParse(`${proto}://${host}`) ? new URL(`${proto}://${host}`).origin : null;
}
