/**
 * `npm run create-operator -- --email you@example.com [--name "Your Name"] [--url http://localhost:3000]`:
 * asks the running server (this machine, the operator key from the environment or .env) for an operator
 * account and prints its one-time sign-in link. No default password exists anywhere: the link sets one.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnvConfig } from '@next/env';

const ROOT = path.resolve(__dirname, '..');
loadEnvConfig(ROOT);

function fail(message: string): never {
  console.error(`create-operator: ${message}`);
  process.exit(1);
}

async function main() {
  const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' }, url: { type: 'string' } } });
  if (!values.email) fail('say whose account it is: npm run create-operator -- --email you@example.com [--name "Your Name"]');
  const key = process.env.ESCROW_OPERATOR_KEY;
  if (!key) fail('ESCROW_OPERATOR_KEY is not set. Put the same value the server runs with in .env (16+ characters), start the server, and run this again.');
  const base = (values.url ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`).replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetch(`${base}/api/operators`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify({ email: values.email, ...(values.name ? { name: values.name } : {}) }),
    });
  } catch {
    fail(`no Escrow Desk server answers at ${base}. Start it (npm start) and run this again, or pass --url.`);
  }
  const body = (await response.json().catch(() => ({}))) as { message?: string; data?: { email: string; sign_in_url: string; expires_at: string } };
  if (!response.ok || !body.data) fail(body.message ?? `the server answered ${response.status}.`);
  console.log(
    [
      '',
      `  Operator account: ${body.data.email}`,
      `  Open this link to choose your password (it works once, until ${body.data.expires_at}):`,
      '',
      `  ${body.data.sign_in_url}`,
      '',
    ].join('\n'),
  );
}

void main();
