import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '@/lib/contracts/operations';
import { baseUrl } from './support/api';

const V1 = path.resolve(__dirname, '../../app/v1');

/** Every route handler under app/v1 as "METHOD /v1/path/{param}". */
function implementedOperations(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts') {
        const route = '/v1/' + path.relative(V1, dir).split(path.sep).map((s) => s.replace(/^\[(\w+)\]$/, (_, p: string) => `{${p === 'userId' ? 'user_id' : p}}`)).join('/');
        const source = fs.readFileSync(full, 'utf8');
        for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']) {
          if (new RegExp(`export (const|async function|function) ${method}\\b`).test(source)) found.push(`${method} ${route}`);
        }
      }
    }
  };
  walk(V1);
  // The document itself and the catch-all 404 for unknown paths are not operations.
  return found.filter((op) => op !== 'GET /v1/openapi.json' && !op.includes('{...path}') && !op.includes('[...path]')).sort();
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and describes exactly the operations the app implements', async () => {
    const res = await fetch(`${baseUrl()}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(documented).toEqual(implementedOperations());
    expect(documented).toHaveLength(OPERATIONS.length);
  });

  it('documents request bodies from the validating schemas and every error status', async () => {
    const doc = await (await fetch(`${baseUrl()}/v1/openapi.json`)).json();
    const reject = doc.paths['/v1/milestones/{id}/reject'].post;
    expect(reject.requestBody.content['application/json'].schema.required.sort()).toEqual(['buyer_id', 'proofs_of_return', 'rejection_reason']);
    expect(Object.keys(reject.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '415']);
    const listUsers = doc.paths['/v1/users'].get;
    expect(listUsers.parameters.filter((p: { required: boolean }) => p.required).map((p: { name: string }) => p.name)).toEqual(['page', 'limit', 'sort']);
    const created = doc.paths['/v1/users'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(created.properties.data.properties)).toContain('default_email');
  });

  it('answers an unknown /v1 path with the 404 error envelope', async () => {
    const res = await fetch(`${baseUrl()}/v1/no/such/operation`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: false, code: 'NOT_FOUND', message: expect.stringContaining('POST /v1/no/such/operation') });
  });

  it('is readable at /docs', async () => {
    const res = await fetch(`${baseUrl()}/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const op of OPERATIONS) expect(html).toContain(op.path);
  });
});
