import 'server-only';
import ipaddr from 'ipaddr.js';

/** Addresses no client reaches this service at: link-local (the cloud metadata service's among them), unspecified, multicast, broadcast. */
const NEVER_SERVED_AT = new Set(['linkLocal', 'unspecified', 'multicast', 'broadcast']);

/**
 * The origin a Host (or trusted X-Forwarded-Host) value names, or undefined where it names none this
 * service could be reached at: not a bare host[:port] (a path, user info, a space), or an address above.
 */
export function serviceOrigin(proto: 'http' | 'https', host: string | undefined): string | undefined {
  if (!host) return undefined;
  let url: URL;
  try {
    url = new URL(`${proto}://${host}`);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(hostname) && NEVER_SERVED_AT.has(ipaddr.process(hostname).range())) return undefined;
  return url.origin;
}
