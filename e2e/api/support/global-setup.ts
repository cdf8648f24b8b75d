import type { TestProject } from 'vitest/node';
import { AS_DEPLOYED, startTestServer } from '../../support/test-server';

declare module 'vitest' {
  export interface ProvidedContext {
    apiBaseUrl: string;
    operatorKey: string;
    database: 'pglite' | 'postgres';
    /** The shared server's PostgreSQL database ('' on PGlite), for a test that starts a second server on it. */
    databaseUrl: string;
  }
}

/** One production server for the API suite; each test file makes its own clients, so files never share records. */
export default async function setup(project: TestProject) {
  const server = await startTestServer({ env: AS_DEPLOYED });
  project.provide('apiBaseUrl', server.baseUrl);
  project.provide('operatorKey', server.operatorKey);
  project.provide('database', server.database);
  project.provide('databaseUrl', server.databaseUrl ?? '');
  return async () => {
    await server.stop();
  };
}
