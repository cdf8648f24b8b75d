import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '@/lib/contracts/common';
import { CreatedUserRecord, UserListRecord, UserRecord, WalletWithOwnerRecord } from '@/lib/contracts/records';
import { call, expectError, expectOk, fundWallet, inDays, newClient, newDeal, newUser, uploadProof, walletBalance, type TestClient } from './support/api';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const uniqueEmail = (prefix = 'user') => `${prefix}.${randomUUID()}@example.com`;

function createUser(client: TestClient, body: unknown) {
  return call('POST', '/v1/users', { key: client.secretKey, body });
}

function listUsers(client: TestClient, query: string) {
  return call('GET', `/v1/users${query}`, { key: client.secretKey });
}

async function userCount(client: TestClient): Promise<number> {
  return expectOk(await listUsers(client, '?page=1&limit=1&sort=DESC')).pagination.total;
}

/** A 400 with the error envelope whose errors[] names the given field. */
function expectFieldError(res: Awaited<ReturnType<typeof call>>, field: string | string[]) {
  const error = expectError(res, 400, 'VALIDATION_ERROR');
  ErrorEnvelope.parse(res.body);
  const fields = (error.errors ?? []).map((e) => e.field);
  const wanted = Array.isArray(field) ? field : [field];
  expect(fields.some((f) => wanted.includes(f)), `errors[] ${JSON.stringify(error.errors)} should name ${wanted.join(' or ')}`).toBe(true);
  for (const e of error.errors ?? []) expect(e.message.length).toBeGreaterThan(0);
  return error;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('POST /v1/users', () => {
  it('creates a sandbox user with every field the spec lists, and a wallet with balance 0', async () => {
    const client = await newClient();
    const email = uniqueEmail('ada');
    const res = await createUser(client, { first_name: 'Ada', last_name: 'Obi', email_address: email });
    const data = CreatedUserRecord.parse(expectOk(res));
    expect(res.body.message).toMatch(/created/i);

    expect(data.id).toMatch(UUID);
    expect(data.first_name).toBe('Ada');
    expect(data.last_name).toBe('Obi');
    expect(data.email).toBe(email);
    expect(data.default_email).toBe(`${client.id}_${email}`);
    expect(data.clientId).toBe(client.id);
    expect(data.source).toBe('THIRD_PARTY');
    expect(data.is_account_verified).toBe(true);
    expect(data.role).toBe('USER');
    expect(data.password).toBeNull();
    expect(data.phone).toBeNull();
    expect(data.user_name.length).toBeGreaterThan(0);
    expect(data.created_at).toMatch(ISO_MS_UTC);
    expect(data.updated_at).toMatch(ISO_MS_UTC);
    expect(Math.abs(Date.parse(data.created_at) - Date.now())).toBeLessThan(60_000);

    expect(data.wallet.id).toMatch(UUID);
    expect(data.wallet.balance).toBe(0);
    expect(data.wallet.account_reference).toMatch(/^[A-Za-z0-9]+_[A-Za-z0-9]+$/);
    expect(data.wallet.provider.length).toBeGreaterThan(0);
    expect(data.wallet.pgA_provider_account_properties).toBeNull();
    expect(data.wallet.pgB_provider_account_properties).toBeNull();
    expect(data.wallet.created_at).toMatch(ISO_MS_UTC);

    // The wallet really exists: GET /v1/wallets/{user_id} shows the same one.
    const wallet = WalletWithOwnerRecord.parse(expectOk(await call('GET', `/v1/wallets/${data.id}`, { key: client.secretKey })));
    expect(wallet).toMatchObject({ id: data.wallet.id, user_id: data.id, balance: 0, account_reference: data.wallet.account_reference });
  });

  it('generates a different user_name for each user, even with the same name', async () => {
    const client = await newClient();
    const names = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const user = expectOk(await createUser(client, { first_name: 'Chinedu', last_name: 'Eze', email: uniqueEmail() }));
      names.add(user.user_name);
    }
    expect(names.size).toBe(4);
  });

  it('reads the email from email_address', async () => {
    const client = await newClient();
    const email = uniqueEmail();
    expect(expectOk(await createUser(client, { first_name: 'A', last_name: 'B', email_address: email })).email).toBe(email);
  });

  it('reads the email from email when email_address is absent (as the spec example sends it)', async () => {
    const client = await newClient();
    const email = uniqueEmail();
    const user = expectOk(await createUser(client, { first_name: 'A', last_name: 'B', email }));
    expect(user.email).toBe(email);
    expect(user.default_email).toBe(`${client.id}_${email}`);
  });

  it('accepts both email and email_address when they are the same', async () => {
    const client = await newClient();
    const email = uniqueEmail();
    expect(expectOk(await createUser(client, { first_name: 'A', last_name: 'B', email, email_address: email })).email).toBe(email);
  });

  it('refuses email and email_address that differ, and creates nobody', async () => {
    const client = await newClient();
    const res = await createUser(client, { first_name: 'A', last_name: 'B', email: uniqueEmail('one'), email_address: uniqueEmail('two') });
    expectFieldError(res, ['email', 'email_address']);
    expect(await userCount(client)).toBe(0);
  });

  it('refuses a second user with the same email in another letter case: 403 EMAIL_TAKEN, user count unchanged', async () => {
    const client = await newClient();
    const email = `Grace.${randomUUID()}@Example.com`;
    expectOk(await createUser(client, { first_name: 'Grace', last_name: 'Hopper', email_address: email }));
    expect(await userCount(client)).toBe(1);

    const upper = await createUser(client, { first_name: 'Other', last_name: 'Person', email_address: email.toUpperCase() });
    expectError(upper, 403, 'EMAIL_TAKEN');
    ErrorEnvelope.parse(upper.body);
    const lower = await createUser(client, { first_name: 'Other', last_name: 'Person', email: email.toLowerCase() });
    expectError(lower, 403, 'EMAIL_TAKEN');

    expect(await userCount(client)).toBe(1);
  });

  it('refuses the same email sent again under the other field name', async () => {
    const client = await newClient();
    const email = uniqueEmail();
    expectOk(await createUser(client, { first_name: 'A', last_name: 'B', email }));
    expectError(await createUser(client, { first_name: 'A', last_name: 'B', email_address: email }), 403, 'EMAIL_TAKEN');
    expect(await userCount(client)).toBe(1);
  });

  it("lets another client create a user with the same email (emails are unique per client)", async () => {
    const first = await newClient();
    const second = await newClient();
    const email = uniqueEmail();
    const a = expectOk(await createUser(first, { first_name: 'A', last_name: 'B', email }));
    const b = expectOk(await createUser(second, { first_name: 'A', last_name: 'B', email }));
    expect(b.id).not.toBe(a.id);
    expect(b.default_email).toBe(`${second.id}_${email}`);
  });

  it('refuses a live-mode client that has not completed KYC: 400 KYC_INCOMPLETE, nobody created', async () => {
    const live = await newClient('live');
    const res = await createUser(live, { first_name: 'A', last_name: 'B', email: uniqueEmail() });
    expectError(res, 400, 'KYC_INCOMPLETE');
    ErrorEnvelope.parse(res.body);
    expect(await userCount(live)).toBe(0);
  });

  describe('invalid bodies: 400 with the error envelope naming the field, and nobody created', () => {
    const email = () => uniqueEmail();
    const cases: Array<{ name: string; body: () => unknown; field: string | string[] }> = [
      { name: 'missing first_name', body: () => ({ last_name: 'B', email: email() }), field: 'first_name' },
      { name: 'missing last_name', body: () => ({ first_name: 'A', email: email() }), field: 'last_name' },
      { name: 'missing both names', body: () => ({ email: email() }), field: 'first_name' },
      { name: 'no email at all', body: () => ({ first_name: 'A', last_name: 'B' }), field: ['email_address', 'email'] },
      { name: 'empty first_name', body: () => ({ first_name: '', last_name: 'B', email: email() }), field: 'first_name' },
      { name: 'blank last_name', body: () => ({ first_name: 'A', last_name: '   ', email: email() }), field: 'last_name' },
      { name: 'email_address that is not an email', body: () => ({ first_name: 'A', last_name: 'B', email_address: 'not-an-email' }), field: 'email_address' },
      { name: 'email that is not an email', body: () => ({ first_name: 'A', last_name: 'B', email: 'a@' }), field: 'email' },
      { name: 'first_name as a number', body: () => ({ first_name: 123, last_name: 'B', email: email() }), field: 'first_name' },
      { name: 'last_name as an object', body: () => ({ first_name: 'A', last_name: { x: 1 }, email: email() }), field: 'last_name' },
      { name: 'email as an array', body: () => ({ first_name: 'A', last_name: 'B', email: [email()] }), field: 'email' },
      { name: 'first_name of 101 characters', body: () => ({ first_name: 'x'.repeat(101), last_name: 'B', email: email() }), field: 'first_name' },
      { name: 'last_name of 10,000 characters', body: () => ({ first_name: 'A', last_name: 'y'.repeat(10_000), email: email() }), field: 'last_name' },
      { name: 'email over 254 characters', body: () => ({ first_name: 'A', last_name: 'B', email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com` }), field: 'email' },
      { name: 'phone with letters', body: () => ({ first_name: 'A', last_name: 'B', email: email(), phone: 'call me' }), field: 'phone' },
    ];

    it.each(cases)('$name', async ({ body, field }) => {
      const client = await newClient();
      expectFieldError(await createUser(client, body()), field);
      expect(await userCount(client)).toBe(0);
    });

    it('a body that is a JSON array, not an object', async () => {
      const client = await newClient();
      const res = await createUser(client, [{ first_name: 'A', last_name: 'B', email: email() }]);
      expectError(res, 400, 'VALIDATION_ERROR');
      ErrorEnvelope.parse(res.body);
      expect(await userCount(client)).toBe(0);
    });

    it('a body that is not JSON: 400 INVALID_JSON', async () => {
      const client = await newClient();
      const res = await call('POST', '/v1/users', {
        key: client.secretKey,
        rawBody: '{"first_name": "A", "last_name": "B", "email": ',
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 400, 'INVALID_JSON');
      ErrorEnvelope.parse(res.body);
      expect(await userCount(client)).toBe(0);
    });

    it('a body sent as a form instead of JSON: 415', async () => {
      const client = await newClient();
      const res = await call('POST', '/v1/users', {
        key: client.secretKey,
        rawBody: new URLSearchParams({ first_name: 'A', last_name: 'B', email: email() }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      ErrorEnvelope.parse(res.body);
      expect(await userCount(client)).toBe(0);
    });

    it('valid JSON sent as text/plain: 415', async () => {
      const client = await newClient();
      const res = await call('POST', '/v1/users', {
        key: client.secretKey,
        rawBody: JSON.stringify({ first_name: 'A', last_name: 'B', email: email() }),
        headers: { 'content-type': 'text/plain' },
      });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(await userCount(client)).toBe(0);
    });
  });
});

describe('GET /v1/users', () => {
  /** A client with five users made one after another, so their created_at values are distinct. */
  async function clientWithFiveUsers() {
    const client = await newClient();
    const created: Array<{ id: string; first_name: string; email: string }> = [];
    for (const first of ['Amaka', 'Bola', 'Chidi', 'Dayo', 'Emeka']) {
      created.push(await newUser(client, first));
      await pause(5);
    }
    return { client, created };
  }

  it.each([
    { missing: 'page', query: '?limit=10&sort=DESC' },
    { missing: 'limit', query: '?page=1&sort=DESC' },
    { missing: 'sort', query: '?page=1&limit=10' },
  ])('requires $missing (400 naming it)', async ({ missing, query }) => {
    const client = await newClient();
    expectFieldError(await listUsers(client, query), missing);
  });

  it('requires all three together: no query at all is 400', async () => {
    const client = await newClient();
    expectError(await listUsers(client, ''), 400, 'VALIDATION_ERROR');
  });

  it.each([
    { what: 'limit 0', query: '?page=1&limit=0&sort=DESC', field: 'limit' },
    { what: 'limit 101', query: '?page=1&limit=101&sort=DESC', field: 'limit' },
    { what: 'limit -1', query: '?page=1&limit=-1&sort=DESC', field: 'limit' },
    { what: 'limit "ten"', query: '?page=1&limit=ten&sort=DESC', field: 'limit' },
    { what: 'page 0', query: '?page=0&limit=10&sort=DESC', field: 'page' },
    { what: 'page "first"', query: '?page=first&limit=10&sort=DESC', field: 'page' },
    { what: 'sort RANDOM', query: '?page=1&limit=10&sort=RANDOM', field: 'sort' },
  ])('refuses $what', async ({ query, field }) => {
    const client = await newClient();
    expectFieldError(await listUsers(client, query), field);
  });

  it('accepts limit at both ends of 1..100', async () => {
    const client = await newClient();
    await newUser(client, 'Ngozi');
    await newUser(client, 'Tunde');
    const one = UserListRecord.parse(expectOk(await listUsers(client, '?page=1&limit=1&sort=DESC')));
    expect(one.users).toHaveLength(1);
    expect(one.pagination).toMatchObject({ limit: 1, total: 2, pageCount: 2 });
    const hundred = UserListRecord.parse(expectOk(await listUsers(client, '?page=1&limit=100&sort=DESC')));
    expect(hundred.users).toHaveLength(2);
    expect(hundred.pagination).toMatchObject({ limit: 100, total: 2, pageCount: 1 });
  });

  it('sorts by created_at: DESC newest first, ASC oldest first', async () => {
    const { client, created } = await clientWithFiveUsers();
    const desc = UserListRecord.parse(expectOk(await listUsers(client, '?page=1&limit=10&sort=DESC')));
    const asc = UserListRecord.parse(expectOk(await listUsers(client, '?page=1&limit=10&sort=ASC')));
    expect(asc.users.map((u) => u.id)).toEqual(created.map((u) => u.id));
    expect(desc.users.map((u) => u.id)).toEqual(created.map((u) => u.id).reverse());
    const times = desc.users.map((u) => Date.parse(u.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('paginates 5 users with limit 2: every pagination field on every page', async () => {
    const { client, created } = await clientWithFiveUsers();
    const page = async (n: number) => UserListRecord.parse(expectOk(await listUsers(client, `?page=${n}&limit=2&sort=ASC`)));

    const p1 = await page(1);
    expect(p1.pagination).toEqual({
      page: 1, limit: 2, prevPage: null, nextPage: 2, currentPage: 1, total: 5, pageCount: 3, pagingCounter: 1, hasPrevPage: false, hasNextPage: true, nextAfter: expect.any(String),
    });
    expect(p1.users.map((u) => u.id)).toEqual([created[0]!.id, created[1]!.id]);

    const p2 = await page(2);
    expect(p2.pagination).toEqual({
      page: 2, limit: 2, prevPage: 1, nextPage: 3, currentPage: 2, total: 5, pageCount: 3, pagingCounter: 3, hasPrevPage: true, hasNextPage: true, nextAfter: expect.any(String),
    });
    expect(p2.users.map((u) => u.id)).toEqual([created[2]!.id, created[3]!.id]);

    const p3 = await page(3);
    expect(p3.pagination).toEqual({
      page: 3, limit: 2, prevPage: 2, nextPage: null, currentPage: 3, total: 5, pageCount: 3, pagingCounter: 5, hasPrevPage: true, hasNextPage: false, nextAfter: null,
    });
    expect(p3.users.map((u) => u.id)).toEqual([created[4]!.id]);

    const beyond = await page(4);
    expect(beyond.users).toEqual([]);
    expect(beyond.pagination).toMatchObject({ total: 5, pageCount: 3, hasNextPage: false, nextPage: null });
  });

  it('lists users with the same record as GET /v1/users/{id} (no wallet, password null)', async () => {
    const client = await newClient();
    const user = await newUser(client, 'Halima');
    const list = UserListRecord.parse(expectOk(await listUsers(client, '?page=1&limit=10&sort=DESC')));
    const { wallet: _wallet, ...withoutWallet } = user;
    expect(list.users).toEqual([withoutWallet]);
    expect(list.users[0]!.password).toBeNull();
  });

  it("shows only this client's users", async () => {
    const mine = await newClient();
    const theirs = await newClient();
    const me = await newUser(mine, 'Mine');
    await newUser(theirs, 'Theirs');
    await newUser(theirs, 'Theirs');
    const list = UserListRecord.parse(expectOk(await listUsers(mine, '?page=1&limit=100&sort=DESC')));
    expect(list.users.map((u) => u.id)).toEqual([me.id]);
    expect(list.pagination.total).toBe(1);
  });

  it('searches by first name, last name or email, ignoring case; total counts the matches', async () => {
    const client = await newClient();
    const zainab = expectOk(await createUser(client, { first_name: 'Zainab', last_name: 'Yusuf', email: uniqueEmail('zy') }));
    const kehinde = expectOk(await createUser(client, { first_name: 'Kehinde', last_name: 'Balogun', email: `kb.${randomUUID()}@lagos-traders.ng` }));
    expectOk(await createUser(client, { first_name: 'Uche', last_name: 'Okafor', email: uniqueEmail('uo') }));

    const search = async (term: string) =>
      UserListRecord.parse(expectOk(await listUsers(client, `?page=1&limit=10&sort=ASC&search=${encodeURIComponent(term)}`)));

    const byFirst = await search('zaINab');
    expect(byFirst.users.map((u) => u.id)).toEqual([zainab.id]);
    expect(byFirst.pagination.total).toBe(1);
    expect((await search('balogun')).users.map((u) => u.id)).toEqual([kehinde.id]);
    expect((await search('LAGOS-TRADERS')).users.map((u) => u.id)).toEqual([kehinde.id]);
    const none = await search('nobody-has-this-name');
    expect(none.users).toEqual([]);
    expect(none.pagination.total).toBe(0);
  });

  it('treats % and _ in a search as literal characters, not wildcards', async () => {
    const client = await newClient();
    await newUser(client, 'Oluwaseun');
    await newUser(client, 'Ifeoma');
    for (const term of ['%', '_']) {
      const res = UserListRecord.parse(expectOk(await listUsers(client, `?page=1&limit=10&sort=ASC&search=${encodeURIComponent(term)}`)));
      expect(res.users, `search ${term}`).toEqual([]);
      expect(res.pagination.total).toBe(0);
    }
  });
});

describe('GET /v1/users/{id}', () => {
  it('returns the user as created (without the wallet)', async () => {
    const client = await newClient();
    const created = await newUser(client, 'Funmilayo');
    const res = await call('GET', `/v1/users/${created.id}`, { key: client.secretKey });
    const user = UserRecord.parse(expectOk(res));
    const { wallet: _wallet, ...withoutWallet } = created;
    expect(user).toEqual(withoutWallet);
  });

  it('is 404 NOT_FOUND for an id that does not exist', async () => {
    const client = await newClient();
    const res = await call('GET', `/v1/users/${randomUUID()}`, { key: client.secretKey });
    expectError(res, 404, 'NOT_FOUND');
    ErrorEnvelope.parse(res.body);
  });

  it.each(['not-a-uuid', '12345', `${randomUUID()}x`])('is 400 for the non-UUID id %s', async (id) => {
    const client = await newClient();
    const res = await call('GET', `/v1/users/${id}`, { key: client.secretKey });
    expectError(res, 400, 'VALIDATION_ERROR');
    ErrorEnvelope.parse(res.body);
  });

  it("is 404 for another client's user, worded exactly as for an id that does not exist", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const user = await newUser(owner, 'Garba');
    const unknownId = randomUUID();

    const foreign = await call('GET', `/v1/users/${user.id}`, { key: stranger.secretKey });
    const unknown = await call('GET', `/v1/users/${unknownId}`, { key: stranger.secretKey });
    const a = expectError(foreign, 404, 'NOT_FOUND');
    const b = expectError(unknown, 404, 'NOT_FOUND');
    expect(a.message.replace(user.id, '<id>')).toBe(b.message.replace(unknownId, '<id>'));
    expect(JSON.stringify(foreign.body)).not.toContain(user.email);

    // The owner still sees it.
    expect(expectOk(await call('GET', `/v1/users/${user.id}`, { key: owner.secretKey })).id).toBe(user.id);
  });
});

describe('PATCH /v1/users/{id}', () => {
  const patch = (client: TestClient, id: string, body: unknown) => call('PATCH', `/v1/users/${id}`, { key: client.secretKey, body });

  it('changes the name and phone; GET, the list and the wallet show the new name; null removes the phone', async () => {
    const client = await newClient();
    const user = await newUser(client, 'Tunde');
    const changed = UserRecord.parse(expectOk(await patch(client, user.id, { first_name: 'Babatunde', last_name: 'Okafor', phone: '+2348031112222' })));
    expect(changed).toMatchObject({ id: user.id, first_name: 'Babatunde', last_name: 'Okafor', phone: '+2348031112222', email: user.email, is_active: true, deactivated_at: null });
    expect(new Date(changed.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(user.updated_at).getTime());
    expect(expectOk(await call('GET', `/v1/users/${user.id}`, { key: client.secretKey }))).toEqual(changed);
    const listed = expectOk(await listUsers(client, '?page=1&limit=10&sort=DESC')).users.find((u: { id: string }) => u.id === user.id);
    expect(listed).toEqual(changed);
    const wallet = expectOk(await call('GET', `/v1/wallets/${user.id}`, { key: client.secretKey }));
    expect(wallet.name).toBe('Babatunde Okafor');

    const noPhone = expectOk(await patch(client, user.id, { phone: null }));
    expect(noPhone).toMatchObject({ first_name: 'Babatunde', phone: null });
  });

  it('refuses an empty body, a blank name, a bad phone and an email change: 400 naming the field, nothing changed', async () => {
    const client = await newClient();
    const user = await newUser(client, 'Chika');
    const before = expectOk(await call('GET', `/v1/users/${user.id}`, { key: client.secretKey }));
    expectFieldError(await patch(client, user.id, {}), '(body)');
    expectFieldError(await patch(client, user.id, { first_name: '   ' }), 'first_name');
    expectFieldError(await patch(client, user.id, { phone: 'call me' }), 'phone');
    expectFieldError(await patch(client, user.id, { is_active: 'no' }), 'is_active');
    // The email is not a field here: it is refused by name, as any unknown field.
    expect(expectError(await patch(client, user.id, { email: 'new@example.com' }), 400, 'UNKNOWN_FIELD').errors?.[0]).toEqual({ field: 'email', message: 'is not a field of this request' });
    expect(expectOk(await call('GET', `/v1/users/${user.id}`, { key: client.secretKey }))).toEqual(before);
  });

  it("is 404 for an unknown id and for another client's user, and the owner's user is unchanged", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const user = await newUser(owner, 'Ngozi');
    expectError(await patch(stranger, user.id, { first_name: 'Taken' }), 404, 'NOT_FOUND');
    expectError(await patch(owner, randomUUID(), { first_name: 'Nobody' }), 404, 'NOT_FOUND');
    expect(expectOk(await call('GET', `/v1/users/${user.id}`, { key: owner.secretKey })).first_name).toBe('Ngozi');
  });

  it('deactivated: a new transaction naming them is 409 USER_DEACTIVATED and nothing is created; reactivated, it is made', async () => {
    const client = await newClient();
    const buyer = await newUser(client, 'Ife');
    const seller = await newUser(client, 'Emeka');
    const off = UserRecord.parse(expectOk(await patch(client, seller.id, { is_active: false })));
    expect(off.is_active).toBe(false);
    expect(off.deactivated_at).toMatch(ISO_MS_UTC);
    // Deactivating again keeps the first time it happened.
    expect(expectOk(await patch(client, seller.id, { is_active: false })).deactivated_at).toBe(off.deactivated_at);

    const deal = { title: 'Chairs', description: 'Six chairs', buyer_id: buyer.id, seller_id: seller.id, milestones: [{ title: 'All', description: 'Six', amount: 1000, due_date: inDays(5) }] };
    const count = async () => expectOk(await call('GET', '/v1/transactions?limit=1', { key: client.secretKey })).pagination.total;
    const before = await count();
    const refused = expectError(await call('POST', '/v1/transactions', { key: client.secretKey, body: deal }), 409, 'USER_DEACTIVATED');
    ErrorEnvelope.parse(refused);
    expect(refused.message).toContain('Emeka');
    expectError(await call('POST', '/v1/transactions', { key: client.secretKey, body: { ...deal, buyer_id: seller.id, seller_id: buyer.id } }), 409, 'USER_DEACTIVATED');
    expect(await count()).toBe(before);

    const on = expectOk(await patch(client, seller.id, { is_active: true }));
    expect(on).toMatchObject({ is_active: true, deactivated_at: null });
    expectOk(await call('POST', '/v1/transactions', { key: client.secretKey, body: deal }));
    expect(await count()).toBe(before + 1);
  });

  it('an open deal runs on after its seller is deactivated: delivery, acceptance and payment out of escrow all work', async () => {
    const client = await newClient();
    const { buyer, seller, milestoneIds } = await newDeal(client, [2000], { walletFunds: 5000 });
    const [milestone] = milestoneIds;
    expectOk(await call('POST', `/v1/milestones/${milestone}/fund`, { key: client.secretKey, body: { buyer_id: buyer.id } }));
    expectOk(await patch(client, seller.id, { is_active: false }));
    const proof = await uploadProof(client);
    expectOk(await call('POST', `/v1/milestones/${milestone}/deliver`, { key: client.secretKey, body: { seller_id: seller.id, proofs_of_completion: [proof] } }));
    expectOk(await call('POST', `/v1/milestones/${milestone}/approve`, { key: client.secretKey, body: { buyer_id: buyer.id } }));
    expect(await walletBalance(client, seller.id)).toBeGreaterThan(0);
    // Their wallet is still theirs: money in works too.
    await fundWallet(client, seller.id, 100);
  });

  it('a second user with the email of a deactivated one is 403 EMAIL_TAKEN, and the message says how to reactivate', async () => {
    const client = await newClient();
    const email = uniqueEmail('deactivated');
    const user = CreatedUserRecord.parse(expectOk(await createUser(client, { first_name: 'Yemi', last_name: 'Ade', email_address: email })));
    expectOk(await patch(client, user.id, { is_active: false }));
    const res = expectError(await createUser(client, { first_name: 'Yemi', last_name: 'Ade', email_address: email }), 403, 'EMAIL_TAKEN');
    expect(res.message).toContain('reactivate');
  });
});
