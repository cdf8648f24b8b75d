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

/** Examples of the paging parameters the list operations share (lib/contracts/common.ts), for the reference's requests. */
const QUERY_EXAMPLES: Record<string, string> = { page: '1', limit: '20', sort: 'DESC' };

type Parameter = { in: string; name: string; example?: unknown; schema?: { example?: unknown } };

function withQueryExamples<D extends { paths?: object }>(document: D): D {
  for (const methods of Object.values(document.paths ?? {}) as Array<Record<string, { parameters?: Parameter[] }>>) {
    for (const op of Object.values(methods)) {
      for (const param of op.parameters ?? []) {
        const example = param.in === 'query' ? QUERY_EXAMPLES[param.name] : undefined;
        if (example !== undefined && param.example === undefined && param.schema?.example === undefined) param.example = example;
      }
    }
  }
  return document;
}

/** The OpenAPI 3.1 document of the app's operations, generated once from their definitions. */
export function documentOf(app: OpenAPIHono<ApiEnv>) {
  let document: ReturnType<OpenAPIHono['getOpenAPI31Document']> | undefined;
  return () => {
    if (!document) {
      app.openAPIRegistry.registerComponent('securitySchemes', 'secretKey', SECURITY_SCHEMES.secretKey);
      app.openAPIRegistry.registerComponent('securitySchemes', 'operatorKey', SECURITY_SCHEMES.operatorKey);
      document = withQueryExamples(app.getOpenAPI31Document({ openapi: '3.1.0', info: DOCUMENT_INFO, servers: [{ url: '/' }] }));
    }
    return document;
  };
}
