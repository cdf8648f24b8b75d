import 'server-only';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ApiEnv } from './env';
import { SECURITY_SCHEMES } from './operation';

export const DOCUMENT_INFO = {
  title: 'Escrow Desk API',
  version: '1.0.0',
  description:
    'Escrow per milestone: sellers deliver with proof, buyers inspect and accept or reject, returns and disputes are mediated. ' +
    'Amounts are naira (NGN) with at most 2 decimals. Every success is HTTP 200 with {status: true, message, data}; every error is {status: false, message, code, errors?}.',
};

/** The OpenAPI 3.1 document of the app's operations, generated once from their definitions. */
export function documentOf(app: OpenAPIHono<ApiEnv>) {
  let document: ReturnType<OpenAPIHono['getOpenAPI31Document']> | undefined;
  return () => {
    if (!document) {
      app.openAPIRegistry.registerComponent('securitySchemes', 'secretKey', SECURITY_SCHEMES.secretKey);
      app.openAPIRegistry.registerComponent('securitySchemes', 'operatorKey', SECURITY_SCHEMES.operatorKey);
      document = app.getOpenAPI31Document({ openapi: '3.1.0', info: DOCUMENT_INFO, servers: [{ url: '/' }] });
    }
    return document;
  };
}
