/**
 * Hands a /v1 request straight to its route handler, without Next's request pipeline in between.
 *
 * Measured on the 2-core bench machine: Next's own per-request work (routing, request and response
 * adapters, async-context setup, streaming the Response back) was about 40% of the server's CPU on every
 * API call (escrow lifecycle at c=32: 4.0 → 2.4 ms of server CPU per operation, 245 → 350 operations/s).
 * The handlers are the same compiled Route Handlers Next would call; what this skips is only the
 * framework's plumbing around them, and the parts of it the API relies on are kept here:
 * - the header rules of next.config.js (from the build's manifest), applied before the handler's own;
 * - Next's own compression middleware, so integrators still get gzip;
 * - anything this path does not answer exactly as Next would goes to Next: a path with a `%` (proxy.ts),
 *   a trailing slash (Next redirects), HEAD and OPTIONS, a streamed or large body (uploads), a statically
 *   prerendered route.
 * A method the route does not export is answered here, whatever the request's shape: Next gives TRACE a
 * plain-text 500 and other methods an empty 405, where the API promises its error envelope.
 *
 * No `server-only` here: this runs in the production server's own process, outside Next's bundles.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { matchApiRoute, type ApiRouteTable } from './api-routes';

/** Bodies up to the API's JSON limit are read here; anything larger (an upload) goes through Next. */
const MAX_BUFFERED_BODY = 1024 * 1024;

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- Next's own copy, so responses compress exactly as Next compresses them
const compression = require('next/dist/compiled/compression') as (options?: object) => Middleware;

/** Whether this request is one the fast path may take, judged before anything is read from it. */
function eligible(req: IncomingMessage, pathname: string): boolean {
  if (pathname.includes('%') || pathname.endsWith('/') || pathname.includes('//')) return false;
  if (req.headers['transfer-encoding'] !== undefined) return false;
  const length = Number(req.headers['content-length'] ?? '0');
  return Number.isInteger(length) && length <= MAX_BUFFERED_BODY;
}

/** The whole body (a Buffer of its own, over a plain ArrayBuffer), or undefined when there is none. */
function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  // A GET carries no body to its handler (fetch's Request refuses one), as under Next.
  if (req.method === 'GET' || req.headers['content-length'] === undefined || req.headers['content-length'] === '0') {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks) as Uint8Array<ArrayBuffer>));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection before sending the whole body'));
    });
  });
}

function toRequest(req: IncomingMessage, origin: string, body: Uint8Array<ArrayBuffer> | undefined): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return new Request(`${origin}${req.url}`, { method: req.method, headers, body });
}

async function send(req: IncomingMessage, res: ServerResponse, response: Response, table: ApiRouteTable, pathname: string, compress: Middleware) {
  res.statusCode = response.status;
  for (const rule of table.headerRules) if (rule.regex.test(pathname)) for (const { key, value } of rule.headers) res.setHeader(key, value);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') res.setHeader(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('set-cookie', cookies);
  compress(req, res, () => {});
  if (!response.body) return void res.end();
  if (/json|^text\//i.test(response.headers.get('content-type') ?? '')) {
    // One write with a length, where Next streams the body chunked: the API's bodies are small.
    const bytes = Buffer.from(await response.arrayBuffer());
    res.setHeader('content-length', bytes.length);
    return void res.end(bytes);
  }
  Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
}

/** 405 in the API's envelope, with the methods the route does answer (Next adds HEAD and OPTIONS to every route). */
function methodNotAllowed(req: IncomingMessage, res: ServerResponse, methods: string[], table: ApiRouteTable, pathname: string) {
  for (const rule of table.headerRules) if (rule.regex.test(pathname)) for (const { key, value } of rule.headers) res.setHeader(key, value);
  const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  const body = JSON.stringify({ status: false, message: `${req.method} is not allowed here: use ${allow}.`, code: 'METHOD_NOT_ALLOWED' });
  res.writeHead(405, { allow, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function internalError(res: ServerResponse, error: unknown) {
  console.error(JSON.stringify({ level: 'error', msg: 'api fast path failed', error: String((error as Error)?.stack ?? error) }));
  if (res.headersSent) return void res.destroy();
  res.statusCode = 500;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ status: false, message: 'Something went wrong on our side.', code: 'INTERNAL_ERROR' }));
}

/**
 * Returns a request listener part: true when it has taken the request, false when Next should.
 * `origin` is this server's own address, which Next also gives route handlers as the request URL.
 */
export function createApiFastPath(table: ApiRouteTable, origin: string) {
  const compress = compression();
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '';
    if (!url.startsWith('/v1/')) return false;
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    const matched = matchApiRoute(table, pathname);
    const method = req.method!;
    if (matched && method !== 'HEAD' && method !== 'OPTIONS' && !matched.route.methods.includes(method)) {
      methodNotAllowed(req, res, matched.route.methods, table, pathname);
      return true;
    }
    if (!eligible(req, pathname)) return false;
    const handler = matched?.route.handlers?.get(method);
    if (!matched || !handler) return false;
    void (async () => {
      let body: Uint8Array<ArrayBuffer> | undefined;
      try {
        body = await readBody(req);
      } catch {
        return void res.destroy(); // the client went away: nobody to answer
      }
      try {
        const response = await handler(toRequest(req, origin, body), { params: Promise.resolve(matched.params) });
        await send(req, res, response, table, pathname, compress);
      } catch (error) {
        internalError(res, error);
      }
    })();
    return true;
  };
}
