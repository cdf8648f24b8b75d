import { describe, expect, it } from 'vitest';
import { call, expectOk, newClient } from './support/api';

describe('smoke', () => {
  it('creates a client and a user', async () => {
    const client = await newClient();
    const user = expectOk(await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'A', last_name: 'B', email: 'x@y.co' } }));
    expect(user.email).toBe('x@y.co');
  });
});
