import 'server-only';
import type { Context } from 'hono';
import { AppError } from '@/lib/server/app-error';
import { bodyLimit, readBodyBytes } from '@/lib/server/http/body';
import type { ApiEnv } from '../env';

/** The request body, read once within its limit (1 MB of JSON, 10 MB of upload) whatever Content-Length claims. */
export async function bodyBytes(c: Context<ApiEnv>): Promise<Buffer> {
  let bytes = c.get('bodyBytes');
  if (!bytes) {
    bytes = await readBodyBytes(c.req.raw, bodyLimit(c.req.raw));
    c.set('bodyBytes', bytes);
  }
  return bytes;
}

/**
 * A JSON body's checks before its schema, in the order and words of the API since its first version:
 * the content type, the size, the syntax, an object. An empty body is read as {}. What passes is handed
 * on to the schema's validator as plain application/json (the body stream is read by then).
 */
export async function checkJsonBody(c: Context<ApiEnv>): Promise<void> {
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
  }
  const text = (await bodyBytes(c)).toString('utf8');
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new AppError('INVALID_JSON', 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('VALIDATION_ERROR', 'The request body must be a JSON object.', [{ field: '(body)', message: 'must be a JSON object' }]);
  }
  c.set('json', body);
  const headers = new Headers(c.req.raw.headers);
  headers.set('content-type', 'application/json');
  c.req.raw = new Request(c.req.url, { method: c.req.method, headers, body: text.trim() === '' ? '{}' : text });
}
