import 'server-only';
import ipaddr from 'ipaddr.js';
import { CLIENT_ADDRESS_HEADER } from '@/lib/contracts/client-address';

/** Where the production server is not in front (`next dev`), every request shares this one address. */
const UNKNOWN = 'unknown';

/** The client's address as the production server decided it (scripts/production-server/client-address.ts). */
export function clientAddressOf(headers: Headers | Record<string, string | string[] | undefined>): string {
  const value = headers instanceof Headers ? headers.get(CLIENT_ADDRESS_HEADER) : headers[CLIENT_ADDRESS_HEADER];
  return (Array.isArray(value) ? value[0] : value) || UNKNOWN;
}

/** Whether the request came through the production server, which drops X-Forwarded-* unless a trusted proxy sent them. */
export function cameThroughProductionServer(headers: Headers): boolean {
  return headers.has(CLIENT_ADDRESS_HEADER);
}

/**
 * The key a client address is counted under: an IPv6 client is usually given a whole /64, so its
 * addresses are counted together; an IPv4 address stands alone.
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}
