/**
 * The contract says what the server does (issue #59 item 7): the live /v1/openapi.json passes Redocly's and
 * Spectral's OpenAPI rulesets, declares the headers and answers the middleware gives every operation, its
 * defaults, its request shapes and the sandbox's bank accounts; and the server does what those declarations say.
 */
import { randomUUID } from 'node:crypto';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, inject, it } from 'vitest';
import { call, expectError, expectOk, inDays, newClient, newUser } from './support/api';

type Schema = { type?: string; format?: string; default?: unknown; minimum?: number; maximum?: number; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; allOf?: Schema[]; required?: string[]; enum?: string[]; additionalProperties?: unknown };
type Ref = { $ref: string };
type Parameter = { name: string; in: string; required?: boolean; schema: Schema };
type Response = { description: string; headers?: Record<string, Ref>; content?: Record<string, { schema: Schema }> };
type Operation = {
  operationId: string;
  tags: string[];
  description?: string;
  security: unknown[];
  parameters?: Array<Parameter | Ref>;
  requestBody?: { content: Record<string, { schema: Schema; example?: unknown; examples?: Record<string, { summary: string; value: Record<string, string> }> }> };
  responses: Record<string, Response>;
};
type OpenApi = {
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { headers: Record<string, unknown>; parameters: Record<string, Parameter> };
};

async function served(): Promise<{ text: string; doc: OpenApi }> {
  const res = await fetch(`${inject('apiBaseUrl')}/v1/openapi.json`);
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, doc: JSON.parse(text) as OpenApi };
}

const operationsOf = (doc: OpenApi) => Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
const codesOf = (response: Response | undefined) => response?.content?.['application/json']?.schema.properties?.code?.enum ?? [];
const opById = (doc: OpenApi, id: string) => operationsOf(doc).find(({ op }) => op.operationId === id)!.op;
const bodySchema = (doc: OpenApi, id: string) => opById(doc, id).requestBody!.content['application/json']!.schema;

describe('the OpenAPI document, linted', () => {
  it("passes Redocly's recommended ruleset with no error or warning", async () => {
    const { text } = await served();
    // A private deployment: its licence and contact are its operator's, not something the API can state for it.
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off' } });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    const findings = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`);
    expect(findings, findings.join('\n')).toEqual([]);
  });

  it("passes Spectral's spectral:oas ruleset with no error or warning", async () => {
    const { text } = await served();
    const spectral = new Spectral();
    // The same reason as Redocly's info-license: a private deployment's contact is its operator's.
    spectral.setRuleset({ extends: [oas as RulesetDefinition], rules: { 'info-contact': 'off' } });
    const results = await spectral.run(new Document(text, Json, 'openapi.json'));
    const findings = results.map((r) => `severity ${r.severity} ${r.code}: ${r.message} at ${r.path.join('.')}`);
    expect(findings, findings.join('\n')).toEqual([]);
  });
});

describe(`what every operation declares (${inject('database')})`, () => {
  it('declares X-Request-Id on every answer, 503 with Retry-After everywhere, 401 and 429 with Retry-After with a key, and Idempotency-Key with its answers on POST and PATCH', async () => {
    const { doc } = await served();
    expect(Object.keys(doc.components.headers).sort()).toEqual(['Idempotent-Replayed', 'Retry-After', 'X-Request-Id']);
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
    const idempotencyRef = { $ref: '#/components/parameters/IdempotencyKey' };
    for (const { method, op } of operationsOf(doc)) {
      const id = `${method} ${op.operationId}`;
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.headers?.['X-Request-Id'], `${id} ${status}`).toEqual({ $ref: '#/components/headers/X-Request-Id' });
      }
      expect(codesOf(op.responses['503']), id).toContain('SERVICE_UNAVAILABLE');
      expect(op.responses['503']!.headers?.['Retry-After'], id).toBeDefined();
      const keyed = op.security.length > 0;
      const idempotent = keyed && (method === 'post' || method === 'patch');
      if (keyed) {
        expect(codesOf(op.responses['401']), id).toContain('UNAUTHORIZED');
        expect(codesOf(op.responses['429']), id).toContain('RATE_LIMITED');
        expect(op.responses['429']!.headers?.['Retry-After'], id).toEqual({ $ref: '#/components/headers/Retry-After' });
      }
      // The middleware reads the key on POST and PATCH only (lib/api/middleware/idempotency.ts).
      expect((op.parameters ?? []).some((p) => '$ref' in p && p.$ref === idempotencyRef.$ref), id).toBe(idempotent);
      if (idempotent) {
        expect(op.responses['200']!.headers?.['Idempotent-Replayed'], id).toEqual({ $ref: '#/components/headers/Idempotent-Replayed' });
        expect(codesOf(op.responses['409']), id).toContain('IDEMPOTENCY_KEY_IN_PROGRESS');
        expect(codesOf(op.responses['422']), id).toContain('IDEMPOTENCY_KEY_REUSED');
      }
      if (keyed && op.requestBody) expect(codesOf(op.responses['400']), id).toContain('UNKNOWN_FIELD');
    }
  });

  it('and the server sends them: X-Request-Id on a success and an error, Idempotent-Replayed on a replay, 422 on a reused key', async () => {
    const client = await newClient();
    const body = { first_name: 'Ngozi', last_name: 'Eze', email_address: `ngozi.${randomUUID()}@example.com` };
    const key = randomUUID();
    const first = await call('POST', '/v1/users', { key: client.secretKey, body, headers: { 'idempotency-key': key } });
    expectOk(first);
    expect(first.headers.get('x-request-id')).toMatch(/\S/);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await call('POST', '/v1/users', { key: client.secretKey, body, headers: { 'idempotency-key': key } });
    expect(expectOk(again).id).toBe(expectOk(first).id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const reused = await call('POST', '/v1/users', { key: client.secretKey, body: { ...body, last_name: 'Obi' }, headers: { 'idempotency-key': key } });
    expectError(reused, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(reused.headers.get('x-request-id')).toMatch(/\S/);
    const unauthorized = await call('GET', '/v1/users?page=1&limit=1&sort=ASC', { key: 'sk_test_unknown' });
    expectError(unauthorized, 401, 'UNAUTHORIZED');
    expect(unauthorized.headers.get('x-request-id')).toMatch(/\S/);
  });

  it('declares every tag it uses, each with a description, and gives every operation a description', async () => {
    const { doc } = await served();
    const declared = new Map(doc.tags.map((t) => [t.name, t.description]));
    for (const { op } of operationsOf(doc)) {
      expect(op.description, op.operationId).toMatch(/\S{3}/);
      for (const tag of op.tags) expect(declared.get(tag), `${op.operationId} tag ${tag}`).toMatch(/\S{3}/);
    }
  });
});

describe(`request shapes and defaults (${inject('database')})`, () => {
  it('declares the defaults the server applies to a transaction created without them, and the server applies those', async () => {
    const { doc } = await served();
    const schema = bodySchema(doc, 'createTransaction');
    const declared = {
      commission_payer: schema.properties!.commission_payer!.default,
      category: schema.properties!.category!.default,
      sub_category: schema.properties!.sub_category!.default,
      inspection_duration: schema.properties!.milestones!.items!.properties!.inspection_duration!.default,
    };
    expect(declared).toEqual({ commission_payer: 'SELLER_100', category: 'GOODS', sub_category: 'Food/beverage/agriculture', inspection_duration: 3 });
    const client = await newClient();
    const [buyer, seller] = [await newUser(client, 'Buyer'), await newUser(client, 'Seller')];
    const created = expectOk(
      await call('POST', '/v1/transactions', {
        key: client.secretKey,
        body: { title: 'Phones', description: 'Ten phones', buyer_id: buyer.id, seller_id: seller.id, milestones: [{ title: 'Delivery', description: 'All ten', amount: 5000, due_date: inDays(10) }] },
      }),
    );
    expect({ commission_payer: created.commission_payer, category: created.category, sub_category: created.sub_category, inspection_duration: created.milestones[0].inspection_duration }).toEqual(declared);
    expect(bodySchema(doc, 'createClient').properties!.mode!.default).toBe('test');
    expect(bodySchema(doc, 'fundMilestone').properties!.acted_by!.default).toBe('buyer');
  });

  it('says that POST /v1/users needs email_address or email, and the server refuses a user with neither', async () => {
    const { doc } = await served();
    const schema = bodySchema(doc, 'createUser');
    expect(schema.allOf).toEqual([{ anyOf: [{ required: ['email_address'] }, { required: ['email'] }] }]);
    expect(schema.additionalProperties).toBe(false);
    const client = await newClient();
    const error = expectError(await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'Ngozi', last_name: 'Eze' } }), 400, 'VALIDATION_ERROR');
    expect(error.errors).toEqual([{ field: 'email_address', message: 'is required (or send email)' }]);
  });

  it('types page and limit as integers with integer defaults, which the query string carries as digits; the upload as a binary file', async () => {
    const { doc } = await served();
    for (const { op } of operationsOf(doc)) {
      for (const param of (op.parameters ?? []) as Parameter[]) {
        if (param.in !== 'query' || (param.name !== 'page' && param.name !== 'limit')) continue;
        expect(param.schema, `${op.operationId} ${param.name}`).toMatchObject({ type: 'integer', minimum: 1 });
        if (!param.required) expect(param.schema.default, `${op.operationId} ${param.name}`).toBe(param.name === 'page' ? 1 : 20);
      }
    }
    const upload = opById(doc, 'uploadFile').requestBody!.content['multipart/form-data']!.schema;
    expect(upload).toMatchObject({ required: ['file'], properties: { file: { type: 'string', format: 'binary' } } });
    const client = await newClient();
    await newUser(client);
    await newUser(client, 'Bola');
    const page = expectOk(await call('GET', '/v1/users?page=2&limit=1&sort=ASC', { key: client.secretKey }));
    expect(page.pagination).toMatchObject({ page: 2, limit: 1, total: 2 });
    expectError(await call('GET', '/v1/users?page=1.5&limit=1&sort=ASC', { key: client.secretKey }), 400, 'VALIDATION_ERROR');
  });
});

describe(`the sandbox's bank accounts (${inject('database')})`, () => {
  it('are named examples of both bank account operations, and answer as their summaries say: a matching name, another name, a failure', async () => {
    const { doc } = await served();
    const client = await newClient();
    const user = expectOk(await call('POST', '/v1/users', { key: client.secretKey, body: { first_name: 'Ngozi', last_name: 'Nwosu', email_address: `ngozi.${randomUUID()}@example.com` } }));
    const examplesOf = (id: string) => opById(doc, id).requestBody!.content['application/json']!.examples!;
    const validate = examplesOf('validateBankAccount');
    const save = examplesOf('saveBankAccount');
    expect(Object.keys(validate)).toEqual(['matching', 'not_matching', 'failing']);
    expect(Object.keys(save)).toEqual(['matching', 'not_matching', 'failing']);

    const named = (summary: string) => /resolves to ([A-Z ]+?),/.exec(summary)?.[1];
    for (const name of ['matching', 'not_matching'] as const) {
      const lookup = expectOk(await call('POST', '/v1/wallets/banks/validate', { key: client.secretKey, body: validate[name]!.value }));
      expect(lookup.account_name, name).toBe(named(validate[name]!.summary));
      const saved = expectOk(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { ...save[name]!.value, user_id: user.id } }));
      expect(saved.name_matches, name).toBe(name === 'matching');
    }
    expect(validate.matching!.summary).toContain('Ngozi Nwosu');
    expectError(await call('POST', '/v1/wallets/banks/validate', { key: client.secretKey, body: validate.failing!.value }), 400, 'INVALID_ACCOUNT_NUMBER');
    expectError(await call('POST', '/v1/wallets/banks/disbursement', { key: client.secretKey, body: { ...save.failing!.value, user_id: user.id } }), 400, 'INVALID_ACCOUNT_NUMBER');
    expect(expectOk(await call('GET', `/v1/wallets/banks/list?user_id=${user.id}`, { key: client.secretKey })).pagination.total).toBe(2);
  });
});
