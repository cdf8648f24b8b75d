import 'server-only';
import { headers } from 'next/headers';

const originOf = (url: string): string | null => {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
};

/**
 * The origin the browser reached the dashboard at, for a link back to it (a payment page's return). A server action's
 * POST carries it in Origin, which Next has already checked against the host; a page's request, in its host headers.
 */
export async function requestOrigin(): Promise<string | null> {
  const h = await headers();
  const origin = h.get('origin');
  if (origin) return originOf(origin);
  const host = h.get('x-forwarded-host') ?? h.get('host');
  if (!host) return null;
  const proto = h.get('x-forwarded-proto')?.split(',')[0]?.trim() || 'http';
  return originOf(`${proto}://${host}`);
}
