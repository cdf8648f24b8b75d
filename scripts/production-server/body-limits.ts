/**
 * Request bodies outside /v1 (sign-in, proof uploads, server actions), refused before anything reads them:
 * /v1 routes read through their own limited reader (lib/server/http/body.ts). A body that declares its
 * length is judged by it here; one that does not (chunked) may go only to the route handlers that count
 * what they read and stop at their limit. Pages' server actions come from browsers, which always declare
 * the length; Next would count a chunked one too, but answer a 500 past its limit.
 *
 * No `server-only` here: this runs in the production server's own process, outside Next's bundles.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_UPLOAD_BYTES } from '../../lib/contracts/files';

/** Next's own limit for a server action's body (serverActions.bodySizeLimit, left at its default). */
const PAGE_BODY_LIMIT = 1024 * 1024;
/** A proof at the upload limit and its multipart framing, as /data/uploads forwards it to POST /v1/files. */
const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;
const UPLOADS = '/data/uploads';
/** Route handlers that read their body through a limited reader (app/api/auth, app/(dashboard)/data/uploads). */
const COUNTING_ROUTES = ['/api/auth/', UPLOADS];

function refuse(res: ServerResponse, status: 411 | 413, message: string) {
  const body = JSON.stringify({ status: false, message, code: status === 413 ? 'PAYLOAD_TOO_LARGE' : 'LENGTH_REQUIRED' });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(body);
}

/** True when it has answered the request (413 or 411), false when the request may go on. */
export function refuseOversizedBody(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '/';
  if (url.startsWith('/v1/')) return false;
  const query = url.indexOf('?');
  const pathname = query === -1 ? url : url.slice(0, query);
  const limit = pathname === UPLOADS ? UPLOAD_BODY_LIMIT : PAGE_BODY_LIMIT;
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    if (Number(declared) <= limit) return false;
    refuse(res, 413, pathname === UPLOADS ? `Files are limited to ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB.` : `Request bodies here are limited to ${limit / 1024} KB.`);
    return true;
  }
  if (req.headers['transfer-encoding'] === undefined || COUNTING_ROUTES.some((route) => pathname.startsWith(route))) return false;
  refuse(res, 411, 'Send this request with a Content-Length.');
  return true;
}
