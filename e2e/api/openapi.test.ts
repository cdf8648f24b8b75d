import { describe, expect, it } from 'vitest';
import { baseUrl } from './support/api';
import { OPERATIONS } from './support/operations';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[] };
type Parameter = { name: string; in: string; required: boolean; schema: Schema };
type Response = { description: string; content?: Record<string, { schema: Schema }> };
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  security: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, Response>;
};
type Document = {
  openapi: string;
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
  paths: Record<string, Record<string, Operation>>;
};

async function served(): Promise<Document> {
  const res = await fetch(`${baseUrl()}/v1/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as Document;
}

const operationsOf = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

describe('the OpenAPI document the API serves', () => {
  it('is OpenAPI 3.1, with a unique id and a summary for each operation, and one for every operation the app defines', async () => {
    const doc = await served();
    expect(doc.openapi).toBe('3.1.0');
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThanOrEqual(45);
    expect(new Set(ops.map(({ op }) => op.operationId)).size).toBe(ops.length);
    for (const { path, op } of ops) {
      expect(path, op.operationId).toMatch(/^\/v1\//);
      expect(op.summary, op.operationId).toMatch(/\S/);
      expect(op.tags, op.operationId).toHaveLength(1);
    }
    expect(ops.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(OPERATIONS.map((op) => `${op.method} ${op.path}`).sort());
  });

  it('names a security scheme on every operation: the client secret key, or the operator key on /v1/operator; a provider webhook none (its signature is its proof)', async () => {
    const doc = await served();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['operatorKey', 'secretKey']);
    for (const scheme of Object.values(doc.components.securitySchemes)) expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    for (const { path, op } of operationsOf(doc)) {
      if (path.startsWith('/v1/providers/')) {
        expect(op.security, op.operationId).toEqual([]);
        expect((op as { description?: string }).description, op.operationId).toMatch(/signature/);
        continue;
      }
      expect(op.security, op.operationId).toEqual([{ [path.startsWith('/v1/operator/') ? 'operatorKey' : 'secretKey']: [] }]);
    }
  });

  it('gives every operation its success schema and its error responses in the error envelope, 401 always', async () => {
    const doc = await served();
    for (const { op } of operationsOf(doc)) {
      const success = op.responses['200']!;
      const json = success.content?.['application/json']?.schema;
      if (json) {
        expect(json.required, op.operationId).toEqual(['status', 'message', 'data']);
        expect(json.properties!.status!.enum, op.operationId).toEqual([true]);
      } else {
        // Bytes: a stored file, or the embedded database's backup.
        const types = Object.keys(success.content ?? {});
        expect(types, op.operationId).toHaveLength(1);
        expect(['application/octet-stream', 'application/gzip'], op.operationId).toContain(types[0]);
      }
      const errors = Object.entries(op.responses).filter(([status]) => status !== '200');
      expect(errors.map(([status]) => status), op.operationId).toContain('401');
      for (const [status, response] of errors) {
        expect(Number(status), op.operationId).toBeGreaterThanOrEqual(400);
        expect(response.description, `${op.operationId} ${status}`).toMatch(/\(code [A-Z_, ]+\)$/);
        const schema = response.content!['application/json']!.schema;
        expect(schema.required, `${op.operationId} ${status}`).toEqual(['status', 'message', 'code']);
        expect(schema.properties!.code!.enum!.length, `${op.operationId} ${status}`).toBeGreaterThan(0);
      }
    }
  });

  it('documents request bodies, queries and path ids from the schemas the app validates with', async () => {
    const doc = await served();
    for (const { path, op } of operationsOf(doc)) {
      const ids = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(pathParams.map((p) => p.name), op.operationId).toEqual(ids);
      for (const p of pathParams) expect(p.schema, op.operationId).toMatchObject({ type: 'string', format: 'uuid' });
      const body = op.requestBody?.content;
      if (body) expect(op.requestBody!.required, op.operationId).toBe(true);
      // Operations with a JSON body name the 415 and 400 a body can get.
      if (body?.['application/json']) expect(Object.keys(op.responses), op.operationId).toEqual(expect.arrayContaining(['400', '415']));
    }
    const reject = doc.paths['/v1/milestones/{id}/reject']!.post!;
    expect(reject.requestBody!.content['application/json']!.schema.required!.sort()).toEqual(['buyer_id', 'proofs_of_return', 'rejection_reason']);
    // Its own answers, and those any keyed POST may get (lib/api/document.ts): 422 for a reused Idempotency-Key, 429, 500, 503.
    expect(Object.keys(reject.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '415', '422', '429', '500', '503']);
    expect(reject.responses['403']!.content!['application/json']!.schema.properties!.code!.enum).toEqual(['WRONG_PARTY']);
    const listUsers = doc.paths['/v1/users']!.get!;
    expect(listUsers.parameters!.filter((p) => p.required).map((p) => p.name)).toEqual(['page', 'limit', 'sort']);
    const created = doc.paths['/v1/users']!.post!.responses['200']!.content!['application/json']!.schema;
    expect(Object.keys(created.properties!.data!.properties!)).toContain('default_email');
    const upload = doc.paths['/v1/files']!.post!.requestBody!.content['multipart/form-data']!.schema;
    expect(upload).toMatchObject({ required: ['file'], properties: { file: { type: 'string', format: 'binary' } } });
  });

  it('answers an unknown /v1 path with the 404 error envelope', async () => {
    const res = await fetch(`${baseUrl()}/v1/no/such/operation`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: false, code: 'NOT_FOUND', message: expect.stringContaining('POST /v1/no/such/operation') });
  });

  it('shows an example of every request body', async () => {
    const doc = await served();
    const bodies = operationsOf(doc).filter(({ op }) => op.requestBody);
    expect(bodies.length).toBeGreaterThanOrEqual(40);
    for (const { op } of bodies) {
      for (const [type, media] of Object.entries(op.requestBody!.content)) {
        // An upload's example is its file: the reference's samples name one (`file=@filename`) from the binary field.
        if (type === 'multipart/form-data') expect(Object.values(media.schema.properties!).some((p) => (p as { format?: string }).format === 'binary'), op.operationId).toBe(true);
        // Or named examples when an operation has several cases to show (the sandbox's bank accounts).
        else expect((media as { example?: unknown }).example ?? Object.values((media as { examples?: object }).examples ?? {})[0], `${op.operationId} ${type}`).toBeDefined();
      }
    }
  });

  it('is readable at /docs: Scalar over /v1/openapi.json, its script from this server', async () => {
    const res = await fetch(`${baseUrl()}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await res.text();
    expect(html).toContain('"url": "/v1/openapi.json"');
    const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^\/docs\/scalar\.js\?v=[0-9a-f]+$/);
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${baseUrl()}${scripts[0]}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await script.text()).toContain('createApiReference');
  });
});
