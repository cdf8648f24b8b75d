/**
 * Secret keys (docs/decisions.md §2, §14): POST /v1/keys/roll gives a new key, shown once, and the keys that
 * worked before keep working until they expire (expires_in_hours, 0: at once); GET /v1/keys lists them
 * by their last 4 characters, never a secret. An Idempotency-Key replay of a roll shows no secret.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiKeyListRecord, RolledKeyRecord } from '@/lib/contracts/keys';
import { call, expectError, expectOk, newClient, type TestClient } from './support/api';

const HOUR = 3_600_000;

const roll = (key: string, body: unknown = {}, headers: Record<string, string> = {}) => call('POST', '/v1/keys/roll', { key, body, headers });
const listKeys = async (key: string) => ApiKeyListRecord.parse(expectOk(await call('GET', '/v1/keys', { key }))).keys;
const works = async (key: string) => (await call('GET', '/v1/keys', { key })).status === 200;

/** Every secret key string in a text: the API's own must never show up where only last 4 characters belong. */
const secretKeysIn = (text: string) => text.match(/sk_(test|live)_[A-Za-z0-9_-]{8,}/g) ?? [];

describe('POST /v1/keys/roll', () => {
  it('returns a new secret key, shown once; the old key keeps working for 24 hours by default', async () => {
    const client = await newClient();
    const before = Date.now();
    const rolled = RolledKeyRecord.parse(expectOk(await roll(client.secretKey)));
    expect(rolled.secret_key).toMatch(/^sk_test_[A-Za-z0-9_-]{32}$/);
    expect(rolled.secret_key).not.toBe(client.secretKey);
    expect(rolled.last4).toBe(rolled.secret_key!.slice(-4));
    expect(rolled.expires_at).toBeNull();
    expect(rolled.expired).toBe(false);
    const oldUntil = Date.parse(rolled.previous_keys_expire_at);
    expect(oldUntil).toBeGreaterThanOrEqual(before + 24 * HOUR);
    expect(oldUntil).toBeLessThanOrEqual(Date.now() + 24 * HOUR);

    // Both keys act for the same client.
    expect(await works(client.secretKey)).toBe(true);
    expect(await works(rolled.secret_key!)).toBe(true);
    const user = expectOk(await call('POST', '/v1/users', { key: rolled.secret_key, body: { first_name: 'Ada', last_name: 'Roll', email: `ada.${randomUUID()}@example.com` } }));
    expect(expectOk(await call('GET', `/v1/users/${user.id}`, { key: client.secretKey })).id).toBe(user.id);

    const listed = ApiKeyListRecord.parse(expectOk(await call('GET', '/v1/keys', { key: rolled.secret_key })));
    // The public key and mode name the account; no secret key is ever listed.
    expect(listed).toMatchObject({ client_id: client.id, public_key: client.publicKey, mode: 'test' });
    expect(JSON.stringify(listed)).not.toContain(client.secretKey);
    expect(JSON.stringify(listed)).not.toContain(rolled.secret_key);
    const keys = listed.keys;
    expect(keys.map((k) => k.last4)).toEqual([rolled.last4, client.secretKey.slice(-4)]);
    expect(keys[1]).toMatchObject({ expires_at: rolled.previous_keys_expire_at, expired: false });
  });

  it('expires_in_hours 0 revokes the old key at once: 401, while the new key works', async () => {
    const client = await newClient();
    const rolled = RolledKeyRecord.parse(expectOk(await roll(client.secretKey, { expires_in_hours: 0 })));
    expectError(await call('GET', '/v1/keys', { key: client.secretKey }), 401, 'UNAUTHORIZED', /expired/);
    expectError(await call('GET', '/v1/users?page=1&limit=5&sort=DESC', { key: `Bearer ${client.secretKey}` }), 401, 'UNAUTHORIZED');
    expectError(await roll(client.secretKey, { expires_in_hours: 0 }), 401, 'UNAUTHORIZED');
    const keys = await listKeys(rolled.secret_key!);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toMatchObject({ last4: client.secretKey.slice(-4), expired: true, expires_at: rolled.previous_keys_expire_at });
  });

  it('after a leak, one roll with 0 leaves only the newest key, even keys still in an earlier overlap', async () => {
    const client = await newClient();
    const second = RolledKeyRecord.parse(expectOk(await roll(client.secretKey, { expires_in_hours: 72 })));
    expect(await works(client.secretKey)).toBe(true);
    const third = RolledKeyRecord.parse(expectOk(await roll(second.secret_key!, { expires_in_hours: 0 })));
    expect(await works(client.secretKey)).toBe(false);
    expect(await works(second.secret_key!)).toBe(false);
    expect(await works(third.secret_key!)).toBe(true);
    expect((await listKeys(third.secret_key!)).map((k) => k.expired)).toEqual([false, true, true]);
  });

  it('a shorter overlap never lengthens an earlier one', async () => {
    const client = await newClient();
    const second = RolledKeyRecord.parse(expectOk(await roll(client.secretKey, { expires_in_hours: 1 })));
    const third = RolledKeyRecord.parse(expectOk(await roll(second.secret_key!, { expires_in_hours: 72 })));
    const [, secondListed, firstListed] = await listKeys(third.secret_key!);
    expect(firstListed!.expires_at).toBe(second.previous_keys_expire_at);
    expect(secondListed!.expires_at).toBe(third.previous_keys_expire_at);
  });

  it("keys expire in real time: a sandbox's test clock moved past the overlap leaves the old key working", async () => {
    const client = await newClient();
    const rolled = RolledKeyRecord.parse(expectOk(await roll(client.secretKey, { expires_in_hours: 1 })));
    expectOk(await call('POST', '/v1/test-clock/advance', { key: rolled.secret_key, body: { days: 2 } }));
    expect(await works(client.secretKey)).toBe(true);
  });

  it('a live client gets an sk_live_ key', async () => {
    const live = await newClient('live');
    const rolled = RolledKeyRecord.parse(expectOk(await roll(live.secretKey, { expires_in_hours: 0 })));
    expect(rolled.secret_key).toMatch(/^sk_live_/);
    expect(await works(rolled.secret_key!)).toBe(true);
  });

  it.each([
    ['-1', -1],
    ['73 (more than 72)', 73],
    ['1.5 (not whole)', 1.5],
    ['"24" (a string)', '24'],
    ['null', null],
    ['1e309 (not finite)', '1e309'],
  ])('refuses expires_in_hours %s with 400 naming the field, and changes nothing', async (_name, value) => {
    const client = await newClient();
    const raw = typeof value === 'string' && value === '1e309' ? '{"expires_in_hours": 1e309}' : JSON.stringify({ expires_in_hours: value });
    const res = await call('POST', '/v1/keys/roll', { key: client.secretKey, rawBody: raw, headers: { 'content-type': 'application/json' } });
    const error = expectError(res, 400, 'VALIDATION_ERROR');
    expect(error.errors?.map((e) => e.field)).toEqual(['expires_in_hours']);
    expect(await listKeys(client.secretKey)).toHaveLength(1);
  });

  it('refuses a body that is not JSON (400) or not sent as JSON (415), and changes nothing', async () => {
    const client = await newClient();
    expectError(await call('POST', '/v1/keys/roll', { key: client.secretKey, rawBody: '{"expires_in_hours":', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON');
    expectError(await call('POST', '/v1/keys/roll', { key: client.secretKey, rawBody: 'expires_in_hours=0', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await listKeys(client.secretKey)).toHaveLength(1);
    expect(await works(client.secretKey)).toBe(true);
  });

  it('an Idempotency-Key replay rolls nothing more and does not show the new secret key again', async () => {
    const client = await newClient();
    const headers = { 'idempotency-key': `roll-${randomUUID()}` };
    const first = await roll(client.secretKey, { expires_in_hours: 0 }, headers);
    const rolled = RolledKeyRecord.parse(expectOk(first));
    expect(rolled.secret_key).toMatch(/^sk_test_/);
    // The old key is revoked, so the replay comes with the new one: same client, same Idempotency-Key scope.
    const again = await roll(rolled.secret_key!, { expires_in_hours: 0 }, headers);
    const replayed = RolledKeyRecord.parse(expectOk(again));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.secret_key).toBeNull();
    expect(replayed).toEqual({ ...rolled, secret_key: null });
    expect(again.body.message).toMatch(/shown once/);
    expect(secretKeysIn(JSON.stringify(again.body))).toEqual([]);
    // Nothing rolled the second time: the new key still works and there are still two keys.
    expect(await works(rolled.secret_key!)).toBe(true);
    expect(await listKeys(rolled.secret_key!)).toHaveLength(2);
  });
});

describe('GET /v1/keys', () => {
  it("lists the client's own keys, newest first, by last 4 characters and times, never a secret", async () => {
    const client = await newClient();
    const other: TestClient = await newClient();
    const [only] = await listKeys(client.secretKey);
    expect(only).toEqual({ id: expect.any(String), last4: client.secretKey.slice(-4), created_at: expect.any(String), expires_at: null, expired: false });

    const rolled = RolledKeyRecord.parse(expectOk(await roll(client.secretKey, { expires_in_hours: 2 })));
    const res = await call('GET', '/v1/keys', { key: client.secretKey });
    const text = JSON.stringify(res.body);
    expect(secretKeysIn(text)).toEqual([]);
    expect(text).not.toContain(client.secretKey);
    expect(text).not.toContain(rolled.secret_key!);
    for (const key of ApiKeyListRecord.parse(expectOk(res)).keys) expect(Object.keys(key).sort()).toEqual(['created_at', 'expired', 'expires_at', 'id', 'last4']);

    // Another client sees only its own key.
    expect((await listKeys(other.secretKey)).map((k) => k.last4)).toEqual([other.secretKey.slice(-4)]);
  });
});
