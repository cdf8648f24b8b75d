import 'server-only';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import { Hono } from 'hono';
import { z } from 'zod';
import { ErrorEnvelope } from '@/lib/contracts/common';
import { ERROR_STATUS, type ErrorCode } from '@/lib/contracts/error-codes';
import type { ApiEnv } from './env';
import { SECURITY_SCHEMES, STATUS_TEXT, type Tag } from './operation';

export const DOCUMENT_INFO = {
  title: 'Escrow Desk API',
  version: '1.0.0',
  description:
    'Escrow per milestone: sellers deliver with proof, buyers inspect and accept or reject, returns and disputes are mediated. ' +
    'Amounts are naira (NGN) with at most 2 decimals. Every success is HTTP 200 with {status: true, message, data}; every error is {status: false, message, code, errors?}.',
};

/** Examples of the paging parameters the list operations share (lib/contracts/common.ts), for the reference's requests. */
const QUERY_EXAMPLES: Record<string, unknown> = { page: 1, limit: 20, sort: 'DESC' };

/** Every tag an operation carries, declared with what it groups. */
export const TAGS: Record<Tag, string> = {
  Users: 'The people on either side of a deal: buyers and sellers, with their email and phone.',
  Transactions: 'A deal between a buyer and a seller, paid in milestones; cancelling, terminating and rating it.',
  Milestones: 'One part of a deal: funded by the buyer, delivered by the seller with proof, inspected, accepted, returned or refunded.',
  Disputes: 'When a return is disputed: amounts proposed and answered, evidence, escalation to the operator.',
  Wallets: "Each user's naira wallet, its balance and its ledger entries, and its statements.",
  'Bank accounts': 'Nigerian banks, account name enquiry and the accounts payouts are sent to.',
  Payouts: "Money leaving a wallet for the user's saved bank account.",
  Checkouts: 'Hosted payment pages that fund a milestone or a wallet.',
  Files: 'Proofs of delivery, return and evidence, uploaded and read back.',
  Sandbox: 'Test keys only: move the test clock, settle payouts and checkouts without a bank.',
  Operator: 'For the operator of this service: clients, the dispute queue, verdicts, reconciliation and backups.',
  Events: 'Everything that happened to your records, in order: the same events webhooks deliver.',
  Webhooks: 'Endpoints that receive your events, signed, with their delivery log.',
  Emails: 'The emails the service sent your users, and resending them.',
  'API keys': 'Your secret keys: listing and rolling them.',
  Settings: 'Your account settings, such as automatic payouts.',
  Providers: 'Calls from payment providers (not for clients).',
  Reports: 'Monthly figures of your deals and money.',
};

/** What the middleware may answer to any request (lib/api/middleware), declared once on every operation it applies to. */
const HEADERS = {
  'X-Request-Id': { description: 'The id of this request, on every answer: quote it when asking about one (a 500 names it too).', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: '"true" when this answer is the stored answer of an earlier request with the same Idempotency-Key: nothing was done again.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Retry-After': { description: 'Seconds to wait before sending the request again.', schema: { type: 'integer', minimum: 1 } },
} as const;

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any 1 to 255 visible ASCII characters (a UUID is a good choice). The same key and request within 24 hours answers the first success again without acting twice (with Idempotent-Replayed: true); the same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first is still running, 409 IDEMPOTENCY_KEY_IN_PROGRESS.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
  example: '5b0a3c2e-6f14-4d8e-9a7b-2c1d3e4f5a6b',
} as const;

type Json = Record<string, unknown>;
type ResponseObject = { description: string; headers?: Record<string, Json>; content?: Record<string, { schema?: Json }> };
type OperationObject = { security?: unknown[]; parameters?: Json[]; requestBody?: { content?: Record<string, unknown> }; responses: Record<string, ResponseObject> };

const ref = (kind: 'headers' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });

function errorSchema(codes: ErrorCode[]): Json {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(ErrorEnvelope.extend({ code: z.enum(codes as [ErrorCode, ...ErrorCode[]]) })) as Json;
  return schema;
}

/** Adds codes to the operation's error answer of their status (made if it has none), keeping its description's "(code …)" list whole. */
function addErrors(op: OperationObject, codes: ErrorCode[]) {
  for (const code of codes) {
    const status = String(ERROR_STATUS[code]);
    const response = op.responses[status];
    const schema = response?.content?.['application/json']?.schema as { properties?: { code?: { enum?: string[] } } } | undefined;
    const listed = schema?.properties?.code?.enum;
    if (response && listed) {
      if (listed.includes(code)) continue;
      listed.push(code);
      response.description = response.description.replace(/\(code ([A-Z_, ]+)\)$/, `(code $1, ${code})`);
    } else {
      op.responses[status] = { description: `${STATUS_TEXT[Number(status)] ?? 'Error'} (code ${code})`, content: { 'application/json': { schema: errorSchema([code]) } } };
    }
  }
}

/**
 * What every operation may meet besides its own answers: the request id on every answer; with a key, 401 and the
 * rate limit (429, Retry-After); on POST and PATCH with a key, the Idempotency-Key header and its answers (a replay
 * marked Idempotent-Replayed, 409 while a twin runs, 422 for a reused key); a body's unknown fields (400
 * UNKNOWN_FIELD); and 503 with Retry-After while the database cannot answer, 500 for the rest.
 */
function withCommonAnswers(operation: OperationObject, method: string) {
  const keyed = (operation.security?.length ?? 0) > 0;
  const idempotent = keyed && (method === 'post' || method === 'patch');
  const content = operation.requestBody?.content ?? {};
  const codes: ErrorCode[] = ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
  if (keyed) codes.push('UNAUTHORIZED', 'RATE_LIMITED');
  if (idempotent) codes.push('VALIDATION_ERROR', 'IDEMPOTENCY_KEY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED');
  if (keyed && (content['application/json'] || content['multipart/form-data'])) codes.push('UNKNOWN_FIELD');
  addErrors(operation, codes);
  if (idempotent) operation.parameters = [...(operation.parameters ?? []), ref('parameters', 'IdempotencyKey')];
  for (const [status, response] of Object.entries(operation.responses)) {
    response.headers = { ...response.headers, 'X-Request-Id': ref('headers', 'X-Request-Id') };
    if (idempotent && status === '200') response.headers['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed');
    if (status === '429' || status === '503') response.headers['Retry-After'] = ref('headers', 'Retry-After');
  }
}

type Parameter = { in: string; name: string; example?: unknown; schema?: { example?: unknown } };

function withQueryExamples(op: { parameters?: Parameter[] }) {
  for (const param of op.parameters ?? []) {
    const example = param.in === 'query' ? QUERY_EXAMPLES[param.name] : undefined;
    if (example !== undefined && param.example === undefined && param.schema?.example === undefined) param.example = example;
  }
}

/** The generated document completed with what the middleware answers, the query examples and the tags' declarations. */
function completed<D extends { paths?: object; components?: object; tags?: unknown }>(document: D): D {
  for (const methods of Object.values(document.paths ?? {}) as Array<Record<string, OperationObject & { parameters?: Parameter[] }>>) {
    for (const [method, op] of Object.entries(methods)) {
      withQueryExamples(op);
      withCommonAnswers(op, method);
    }
  }
  return {
    ...document,
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    components: { ...document.components, headers: HEADERS, parameters: { IdempotencyKey: IDEMPOTENCY_KEY } },
  };
}

/** The OpenAPI 3.1 document of the app's operations, generated once from their definitions. */
export function documentOf(app: OpenAPIHono<ApiEnv>) {
  let document: ReturnType<OpenAPIHono['getOpenAPI31Document']> | undefined;
  return () => {
    if (!document) {
      app.openAPIRegistry.registerComponent('securitySchemes', 'secretKey', SECURITY_SCHEMES.secretKey);
      app.openAPIRegistry.registerComponent('securitySchemes', 'operatorKey', SECURITY_SCHEMES.operatorKey);
      document = completed(app.getOpenAPI31Document({ openapi: '3.1.0', info: DOCUMENT_INFO, servers: [{ url: '/' }] }));
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
