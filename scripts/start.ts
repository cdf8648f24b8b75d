/**
 * `npm start`: loads .env files, builds if there is no current build, starts the production server,
 * and says where to go once it answers. `npm run start:api` (--api-only): the API alone, without Next,
 * so without a build.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { loadEnvConfig } from '@next/env';
import { ensureBuild } from './ensure-build';
import { productionServerArgs } from './production-server/command';

const ROOT = path.resolve(__dirname, '..');
const API_ONLY = process.argv.includes('--api-only');
loadEnvConfig(ROOT);
if (!API_ONLY) {
  try {
    ensureBuild();
  } catch (error) {
    console.error(`\nEscrow Desk could not start: ${(error as Error).message}\n`);
    process.exit(1);
  }
}

const port = process.env.PORT ?? '3000';
// HOST=127.0.0.1 keeps the server on this machine; the default listens on every interface.
const host = process.env.HOST || '0.0.0.0';
const everyInterface = host === '0.0.0.0' || host === '::';
const url = `http://${everyInterface ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`;
const listening = everyInterface
  ? `  Listening on:   ${host}:${port} (every network interface; HOST=127.0.0.1 keeps it to this machine)`
  : `  Listening on:   ${host}:${port} only`;
const server = spawn(process.execPath, productionServerArgs(port, host, { apiOnly: API_ONLY }), {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));

type DemoAccounts = 'on' | 'retired' | 'off' | 'unknown';

async function demoAccounts(): Promise<DemoAccounts> {
  try {
    const res = await fetch(`${url}/api/health/demo-accounts`);
    return ((await res.json()) as { data: { demo_accounts: DemoAccounts } }).data.demo_accounts;
  } catch {
    return 'unknown';
  }
}

/** The published demo passwords, only while they work (docs/decisions.md §14: never once a live-mode client exists). */
function demoSignIns(state: DemoAccounts): string[] {
  if (state === 'retired') {
    return ['                  Demo sign-ins are off: this server has a live-mode client and their passwords are published.'];
  }
  if (state !== 'on') return [];
  return [
    '                  admin@demo.escrowdesk.ng / demo-admin-pass    (client admin)',
    '                  ada.obi@demo.escrowdesk.ng / demo-buyer-pass    (buyer)',
    '                  tunde.balogun@demo.escrowdesk.ng / demo-seller-pass  (seller)',
    '                  disputes@demo.escrowdesk.ng / demo-disputes-pass  (dispute team, demo client only; needs ESCROW_OPERATOR_KEY)',
  ];
}

async function announceApi() {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await fetch(`${url}/v1/openapi.json`)).ok) {
        console.log(
          [
            '',
            `  Escrow Desk API is running at ${url}/v1  (API only: no dashboard on this server)`,
            listening,
            `  OpenAPI:        ${url}/v1/openapi.json`,
            process.env.ESCROW_OPERATOR_KEY ? '' : '  Operator API:   set ESCROW_OPERATOR_KEY (16+ characters) to enable /v1/operator/…',
            '',
          ].join('\n'),
        );
        return;
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function announce() {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) {
        const { data } = (await res.json()) as { data: { database: string } };
        const where = data.database === 'pglite' ? `embedded database in ${process.env.ESCROW_DATA_DIR ?? './.data'}` : 'PostgreSQL at DATABASE_URL';
        console.log(
          [
            '',
            `  Escrow Desk is running at ${url}  (${where})`,
            listening,
            '',
            `  Sign in:        ${url}/login`,
            ...demoSignIns(await demoAccounts()),
            `  API reference:  ${url}/docs   (OpenAPI: ${url}/v1/openapi.json)`,
            process.env.ESCROW_OPERATOR_KEY ? '' : '  Operator API:   set ESCROW_OPERATOR_KEY (16+ characters) to enable /v1/operator/…',
            '',
          ].join('\n'),
        );
        return;
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
void (API_ONLY ? announceApi() : announce());
