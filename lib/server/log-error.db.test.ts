/**
 * The 500 log line's description of an error (issue #22): a real database failure whose parameters
 * hold a fresh secret, on PGlite (and PostgreSQL when TEST_DATABASE_URL is set), comes out with its class
 * and PostgreSQL code and without the parameters.
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponse } from '@/lib/api/respond';
import { loggableError } from './log-error';

const SECRET = 'whsec_Zm9yIGEgdGVzdCBvbmx5LCBub3QgYSByZWFsIHNlY3JldA';

async function failingInsertError(db: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> }): Promise<unknown> {
  await db.execute(sql`create temporary table if not exists log_error_probe (url text, secret text)`);
  try {
    await db.execute(sql`insert into log_error_probe (url, secret) values (${'https://example.com/\u0000'}, ${SECRET})`);
  } catch (error) {
    return error;
  }
  throw new Error('the insert was expected to fail');
}

function expectNoParameters(logged: unknown) {
  const text = JSON.stringify(logged);
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain('whsec_');
  expect(text).not.toContain('example.com');
  expect(text).not.toMatch(/params:/);
}

const pglite = new PGlite();
beforeAll(() => pglite.waitReady, 60_000);
afterAll(() => pglite.close());

describe('a database error in the server log', () => {
  it('PGlite: the class, PostgreSQL code and statement, never the parameters', async () => {
    const error = await failingInsertError(drizzlePglite(pglite));
    // The error itself carries the secret: this is what the log used to print.
    expect(String((error as Error).stack)).toContain(SECRET);
    const logged = loggableError(error);
    expect(logged.pg_code).toMatch(/^[0-9A-Z]{5}$/);
    expect(logged.error_class).toBeTruthy();
    expect(logged.statement).toMatch(/insert into log_error_probe/);
    expectNoParameters(logged);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL (postgres.js): the same', async () => {
    const client = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => undefined });
    try {
      const error = await failingInsertError(drizzlePostgres(client));
      // postgres.js keeps the parameters on its error too, out of its enumerable fields.
      expect((error as { cause?: { parameters?: unknown[] } }).cause?.parameters).toContain(SECRET);
      const logged = loggableError(error);
      expect(logged.pg_code).toBe('22021');
      expect(logged.statement).toMatch(/insert into log_error_probe/);
      expectNoParameters(logged);
    } finally {
      await client.end();
    }
  });

  it('errorResponse logs one line without the parameters and answers a bare 500', async () => {
    const error = await failingInsertError(drizzlePglite(pglite));
    const lines: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
    let response: Response;
    try {
      response = errorResponse(error, 'req-1');
    } finally {
      console.error = original;
    }
    expect(response.status).toBe(500);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'error', request_id: 'req-1', error: { pg_code: expect.any(String) } });
    expectNoParameters(lines[0]);
    expect(await response.text()).not.toContain(SECRET);
  });

  it('redacts anything shaped like a key in a message of our own', () => {
    const logged = loggableError(new Error(`unexpected key sk_live_abcdefghijklmnop and ${SECRET}`));
    expect(logged.message).toBe('unexpected key [secret] and [secret]');
  });
});
