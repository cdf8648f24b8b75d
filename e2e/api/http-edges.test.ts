import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { baseUrl, call, expectOk, newClient, newUser } from './support/api';

/** A GET as a plain HTTP client sees it: the raw bytes and headers, nothing decoded for us. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl()}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('the API at the edges of HTTP', () => {
  it('gzips a large JSON answer for a client that accepts it, and sends it plain with its length to one that does not', async () => {
    const client = await newClient();
    for (let i = 0; i < 12; i++) await newUser(client);
    const path = '/v1/users?page=1&limit=20&sort=DESC';
    const plain = await rawGet(path, { authorization: client.secretKey });
    const zipped = await rawGet(path, { authorization: client.secretKey, 'accept-encoding': 'gzip, deflate' });

    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zipped.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(gunzipSync(zipped.body).toString('utf8')).data.users).toEqual(JSON.parse(plain.body.toString('utf8')).data.users);
  });

  it('carries the security headers on API answers', async () => {
    const client = await newClient();
    const res = await call('GET', '/v1/users?page=1&limit=5&sort=DESC', { key: client.secretKey });
    expectOk(res);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a method a route does not serve with 405, and a trailing slash with a redirect to the path without it', async () => {
    const client = await newClient();
    const wrongMethod = await call('PUT', '/v1/users', { key: client.secretKey, body: {} });
    expect(wrongMethod.status).toBe(405);
    const slash = await fetch(`${baseUrl()}/v1/users/`, { headers: { authorization: client.secretKey }, redirect: 'manual' });
    expect(slash.status).toBe(308);
    expect(slash.headers.get('location')).toBe('/v1/users');
  });
});
