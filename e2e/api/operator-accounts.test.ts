/**
 * POST /api/operators, which `npm run create-operator` asks (docs/decisions.md §14: the first operator of a fresh
 * server gets a one-time sign-in link, never a default password): only with the operator key, from this
 * machine; the link works once, and asking again for the same operator replaces it.
 */
import { describe, expect, it } from 'vitest';
import { baseUrl, operatorKey } from './support/api';

/** `key` null: no Authorization header at all. */
const ask = (body: unknown, key: string | null = operatorKey(), headers: Record<string, string> = {}) =>
  fetch(`${baseUrl()}/api/operators`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: key } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe('POST /api/operators', () => {
  it('makes an operator and answers a one-time link to set its password', async () => {
    const email = `ops.${unique()}@example.com`;
    const res = await ask({ email: email.toUpperCase(), name: 'Olu Operator' });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { email: string; sign_in_url: string; expires_at: string } };
    expect(data.email).toBe(email);
    expect(data.sign_in_url).toMatch(/\/invite\/[A-Za-z0-9_-]{40,}$/);
    expect(Date.parse(data.expires_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const page = await fetch(`${baseUrl()}${new URL(data.sign_in_url).pathname}`);
    expect(await page.text()).toContain(email);

    // Asked again (a lost password): a new link, and the first one no longer works.
    const again = (await (await ask({ email })).json()) as { data: { sign_in_url: string } };
    expect(again.data.sign_in_url).not.toBe(data.sign_in_url);
    expect(await (await fetch(`${baseUrl()}${new URL(data.sign_in_url).pathname}`)).text()).toContain('expired or was already used');
  });

  it('refuses without the operator key, with a wrong one, and bad input; makes nobody', async () => {
    const email = `nobody.${unique()}@example.com`;
    expect((await ask({ email }, null)).status).toBe(401);
    expect((await ask({ email }, 'op_not_the_key_0123456789')).status).toBe(401);
    expect((await ask({ email }, 'sk_test_not_an_operator_key_00000000')).status).toBe(401);
    expect((await ask({ email: 'not an email' })).status).toBe(400);
    expect((await ask('{not json')).status).toBe(400);
    // Not made by any of those: the first real request creates the account (201), as for a new email.
    expect((await ask({ email })).status).toBe(201);
  });

});
