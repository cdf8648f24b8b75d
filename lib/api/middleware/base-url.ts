import 'server-only';
import type { Context } from 'hono';
import { env } from '@/lib/server/env';
import { cameThroughProductionServer } from '@/lib/server/http/client-address';
import { serviceOrigin } from '@/lib/server/http/service-origin';
import type { ApiEnv } from '../env';

/**
 * Where the caller reached this API, for the URLs of stored files: ESCROW_PUBLIC_URL when set, else the
 * Host header, or X-Forwarded-Host/Proto where the production server let them through (it drops them
 * unless a trusted proxy sent them); a header that names no usable host is passed over, never a 500.
 */
function publicBaseUrl(request: Request): string {
  const configured = env().ESCROW_PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const first = (value: string | null) => value?.split(',')[0]?.trim() || undefined;
  const forwarded = cameThroughProductionServer(request.headers);
  const forwardedProto = forwarded ? first(request.headers.get('x-forwarded-proto'))?.toLowerCase() : undefined;
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : request.url.startsWith('https:') ? 'https' : 'http';
  const forwardedHost = forwarded ? first(request.headers.get('x-forwarded-host')) : undefined;
  return serviceOrigin(proto, forwardedHost) ?? serviceOrigin(proto, first(request.headers.get('host'))) ?? new URL(request.url).origin;
}

/** Worked out only for the operations that name file URLs (most never do), once per request. */
export function baseUrl(c: Context<ApiEnv>): string {
  let url = c.get('baseUrl');
  if (url === undefined) c.set('baseUrl', (url = publicBaseUrl(c.req.raw)));
  return url;
}
