/**
 * Who sent a request, decided once by the production server for every route, /v1 and Next's alike: the
 * socket's peer, or, when that peer is a trusted proxy (ESCROW_TRUSTED_PROXIES), the address the proxies
 * forwarded in X-Forwarded-For, walked back with proxy-addr only as far as the proxies are trusted. The
 * answer reaches the routes in CLIENT_ADDRESS_HEADER, which is always overwritten.
 *
 * A peer that is not a trusted proxy cannot say how the request was addressed or whom it came from: its
 * X-Forwarded-* and Forwarded headers are dropped before any route sees them.
 *
 * No `server-only` here: this runs in the production server's own process, outside Next's bundles.
 */
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';
import { CLIENT_ADDRESS_HEADER } from '../../lib/contracts/client-address';

export type TrustProxy = (address: string, hop: number) => boolean;

const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'];
const ALWAYS_DROPPED = [CLIENT_ADDRESS_HEADER];
const DROPPED_FROM_UNTRUSTED = [CLIENT_ADDRESS_HEADER, ...FORWARDING_HEADERS];

/**
 * ESCROW_TRUSTED_PROXIES: a comma-separated list of addresses, CIDR ranges or proxy-addr's names
 * (loopback, linklocal, uniquelocal). Unset: no proxy is trusted. A bad entry stops the server at start.
 */
export function trustedProxies(setting: string | undefined): TrustProxy {
  const entries = (setting ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return () => false;
  try {
    return proxyAddr.compile(entries);
  } catch (error) {
    throw new Error(`ESCROW_TRUSTED_PROXIES: ${(error as Error).message}`);
  }
}

/** One spelling per address: an IPv4 client on an IPv6 socket (::ffff:1.2.3.4) is 1.2.3.4. */
function canonical(address: string): string {
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
}

function dropHeaders(req: IncomingMessage, names: string[]): void {
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (names.includes(raw[i]!.toLowerCase())) raw.splice(i, 2);
  for (const name of names) delete req.headers[name];
}

/**
 * Sets CLIENT_ADDRESS_HEADER on the request, in both of the forms routes read it from (the API app's
 * adapter reads rawHeaders, Next reads headers), after dropping what the peer may not say.
 */
export function assignClientAddress(req: IncomingMessage, trust: TrustProxy): void {
  const peer = req.socket.remoteAddress;
  if (!peer) return void dropHeaders(req, DROPPED_FROM_UNTRUSTED); // the socket is already gone
  const peerTrusted = trust(peer, 0);
  const address = canonical(peerTrusted ? proxyAddr(req, trust) : peer);
  dropHeaders(req, peerTrusted ? ALWAYS_DROPPED : DROPPED_FROM_UNTRUSTED);
  req.headers[CLIENT_ADDRESS_HEADER] = address;
  req.rawHeaders.push(CLIENT_ADDRESS_HEADER, address);
}
