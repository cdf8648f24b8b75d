import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { baseUrl, newClient } from './support/api';

/** Any method, TRACE included (fetch refuses to send TRACE): the status, headers and parsed body. */
function send(method: string, route: string, key?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl()}${route}`, { method, headers: key ? { authorization: key } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text for the assertion message
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const allowOf = (headers: http.IncomingHttpHeaders) => String(headers.allow ?? '').split(/,\s*/).sort();

describe('a method no operation answers', () => {
  it.each([
    ['TRACE', '/v1/users', ['GET', 'HEAD', 'OPTIONS', 'POST']],
    ['PROPFIND', '/v1/users', ['GET', 'HEAD', 'OPTIONS', 'POST']],
    ['PUT', '/v1/users', ['GET', 'HEAD', 'OPTIONS', 'POST']],
    ['TRACE', '/v1/milestones/0190f5a4-0000-7000-8000-000000000000/fund', ['OPTIONS', 'POST']],
    ['TRACE', '/v1/no-such-operation', ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']],
    ['PROPFIND', '/v1/no/such/operation', ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']],
  ])('%s %s is a 405 in the error envelope, with Allow', async (method, route, allowed) => {
    const client = await newClient();
    const res = await send(method, route, client.secretKey);
    expect(res.status, JSON.stringify(res.body)).toBe(405);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: false, code: 'METHOD_NOT_ALLOWED' });
    expect(res.body.message).toContain(method);
    expect(allowOf(res.headers)).toEqual([...allowed].sort());
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('leaves the methods a route does answer alone, and OPTIONS to Next', async () => {
    const client = await newClient();
    expect((await send('GET', '/v1/users?page=1&limit=1&sort=DESC', client.secretKey)).status).toBe(200);
    expect((await send('POST', '/v1/no-such-operation', client.secretKey)).status).toBe(404);
    const options = await send('OPTIONS', '/v1/users');
    expect(options.status).toBe(204);
    expect(allowOf(options.headers)).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
  });
});
