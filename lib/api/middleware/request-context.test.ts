/**
 * An error after an answer was made (an operation's 200 whose transaction then fails to commit, as when the database
 * goes away at that moment) is answered with the error alone: its own Content-Length, not the replaced answer's, so a
 * client reads the whole error instead of waiting for bytes that never come.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { ApiEnv } from '../env';
import { answerWithError } from '../respond';
import { requestContext } from './request-context';

/** The API's wiring around an operation: the request context first, the error answer in onError. */
function appFailingAfter(answer: () => Response, failure: unknown) {
  const app = new Hono<ApiEnv>();
  app.use(requestContext);
  app.use(async (_c, next) => {
    await next();
    // What a failed COMMIT looks like after the handler answered.
    throw failure;
  });
  app.post('/op', () => answer());
  app.onError((error, c) => answerWithError(c, error));
  return app;
}

const bigAnswer = () => Response.json({ data: 'x'.repeat(2_000) }, { headers: { 'content-length': '2012', etag: '"abc"' } });

describe('an error after the operation answered', () => {
  it('thrown as an Error: the 503 carries its own length and body, none of the replaced answer', async () => {
    const lost = Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED', query: 'commit' });
    const res = await appFailingAfter(bigAnswer, lost).request('/op', { method: 'POST' });
    const body = await res.text();
    expect(res.status).toBe(503);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('retry-after')).toBe('5');
    expect(JSON.parse(body)).toMatchObject({ status: false, code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/may or may not have been/) });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('thrown as a value that is no Error (it reaches the request context, not onError): the same', async () => {
    const res = await appFailingAfter(bigAnswer, { code: 'CONNECTION_CLOSED', query: 'commit' }).request('/op', { method: 'POST' });
    const body = await res.text();
    expect(res.status).toBe(503);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(res.headers.get('etag')).toBeNull();
    expect(JSON.parse(body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
