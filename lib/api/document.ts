import 'server-only';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import { Hono } from 'hono';
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

/**
 * Scalar's light palette darkened to reach WCAG AA contrast (4.5:1) on its backgrounds, the blue of its dark code
 * blocks lightened for the same reason; and its content kept to the window's width on a phone.
 */
const REFERENCE_CSS = `
.light-mode {
  --scalar-color-2: #595959;
  --scalar-color-3: #5e5e5e;
  --scalar-color-accent: #0060c0;
  --scalar-color-green: #066b32;
  --scalar-color-red: #b00009;
  --scalar-color-yellow: #785400;
  --scalar-color-blue: #005a9e;
  --scalar-color-orange: #974200;
  --scalar-color-purple: #5203d1;
}
.dark-mode {
  --scalar-color-blue: #9aabf5;
}
.scalar-app {
  overflow-x: clip;
}
`;

/**
 * The reference page (/docs): Scalar's, over the document /v1/openapi.json serves, with Scalar's bundle at
 * `scriptUrl` on this server. Nothing is fetched from elsewhere: no web fonts, no telemetry, no AI agent. Every
 * section open, so that a reader's find-in-page reaches every operation; one (light) palette, the one checked
 * for contrast.
 */
export function apiReference(scriptUrl: string): (request: Request) => Promise<Response> {
  const reference = new Hono().get(
    '*',
    Scalar({
      pageTitle: `${DOCUMENT_INFO.title} reference`,
      url: '/v1/openapi.json',
      cdn: scriptUrl,
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      showDeveloperTools: 'never',
      defaultOpenAllTags: true,
      forceDarkModeState: 'light',
      hideDarkModeToggle: true,
      customCss: REFERENCE_CSS,
    }),
  );
  return async (request) => {
    const page = await reference.fetch(request);
    // Scalar's page names no language; screen readers need it to pick a voice.
    const html = (await page.text()).replace('<html>', '<html lang="en">');
    return new Response(html, { status: page.status, headers: { 'content-type': page.headers.get('content-type') ?? 'text/html; charset=UTF-8' } });
  };
}
