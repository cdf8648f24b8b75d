import 'server-only';
import type { MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX, compress } from 'hono/compress';

/**
 * gzip (or deflate) for a client that accepts it, from 1 KB up, as the API has always answered: every
 * compressible answer says `Vary: Accept-Encoding`, compressed or not, and one made without its length
 * (the API's own JSON carries it: respond.ts) is measured first, so one under the threshold goes out
 * plain, with its length.
 */
const lengthAndVary: MiddlewareHandler = async (c, next) => {
  await next();
  const headers = c.res.headers;
  if (!COMPRESSIBLE_CONTENT_TYPE_REGEX.test(headers.get('content-type') ?? '')) return;
  const vary = headers.get('vary');
  if (!vary) headers.set('vary', 'Accept-Encoding');
  else if (vary !== '*' && !/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) headers.set('vary', `${vary}, Accept-Encoding`);
  if (headers.has('content-length') || !c.res.body) return;
  const bytes = new Uint8Array(await c.res.arrayBuffer());
  c.res = new Response(bytes, c.res);
  c.res.headers.set('content-length', String(bytes.byteLength));
};

export const compression: MiddlewareHandler[] = [compress(), lengthAndVary];
