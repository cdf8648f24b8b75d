import 'server-only';
import { createRoute, z, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { ErrorEnvelope, successEnvelope } from '@/lib/contracts/common';
import { ERROR_STATUS, type ErrorCode } from '@/lib/contracts/error-codes';
import { AppError } from '@/lib/server/app-error';
import type { ApiEnv } from './env';
import { clientAuth, operatorAuth } from './middleware/auth';
import { checkJsonBody } from './middleware/body';
import { idempotency } from './middleware/idempotency';

export type Tag = 'Users' | 'Transactions' | 'Milestones' | 'Disputes' | 'Wallets' | 'Bank accounts' | 'Payouts' | 'Checkouts' | 'Files' | 'Sandbox' | 'Operator' | 'Events' | 'Webhooks' | 'Emails' | 'API keys' | 'Settings' | 'Providers' | 'Reports';
export type Auth = 'client' | 'operator';
export type ActingParty = 'buyer' | 'seller' | 'either';

/** What the reference says of an operation besides its schemas. */
export type OperationDocs = {
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  auth: Auth;
  /** Milestone and dispute actions: who may take them (the body names them). */
  actingParty?: ActingParty;
  /** Every error code the operation answers with besides the ones any request may get (429, 500). */
  errors: readonly ErrorCode[];
};

// Error code lists shared by many operations.
export const BASE_ERRORS = ['UNAUTHORIZED'] as const satisfies ErrorCode[];
export const BODY_ERRORS = [...BASE_ERRORS, 'INVALID_JSON', 'VALIDATION_ERROR', 'UNKNOWN_FIELD', 'UNSUPPORTED_MEDIA_TYPE'] as const satisfies ErrorCode[];
export const ACTION_ERRORS = [...BODY_ERRORS, 'WRONG_PARTY', 'NOT_FOUND', 'INVALID_STATE'] as const satisfies ErrorCode[];

export const SECURITY_SCHEMES = {
  secretKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Your secret key, raw (sk_test_…) or as "Bearer sk_test_…".' },
  operatorKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The operator key (ESCROW_OPERATOR_KEY).' },
} as const;

export const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid JSON, body, query, path id or header, or an unknown body field',
  401: 'Missing or unknown key',
  403: 'Not the acting party, or not allowed for this key',
  404: 'Unknown id, or an id of another client',
  409: 'Not allowed in the current state, or an Idempotency-Key twin still running',
  413: 'Upload too large',
  415: 'Wrong content type',
  422: 'Idempotency-Key reused with another body',
  429: 'Rate limited',
  500: 'Something went wrong on our side (the message quotes the request id)',
  502: 'The payment provider could not be reached: try again',
  503: 'The database cannot answer right now: try again after Retry-After seconds',
};

/**
 * One response per error status, naming its codes (the schema's `code` enumerates them). Typed as
 * nothing: handlers answer errors by throwing AppError, and the typed client reads successes only.
 */
export function errorResponses(codes: readonly ErrorCode[]): Record<never, never> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      {
        description: `${STATUS_TEXT[status] ?? 'Error'} (code ${list.join(', ')})`,
        content: { 'application/json': { schema: ErrorEnvelope.extend({ code: z.enum(list as [ErrorCode, ...ErrorCode[]]) }) } },
      },
    ]),
  );
}

export function jsonResponse<S extends z.ZodType>(schema: S) {
  return { 200: { description: 'Success', content: { 'application/json': { schema: successEnvelope(schema) } } } };
}

// ---------------------------------------------------------------------------------------------
// Path ids

/** The id the reference's request examples put in a path. */
const EXAMPLE_PATH_ID = '5f0c2a9e-3b7d-4c1e-9a42-8d6e1f3b7c05';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The name each path id goes by in errors (`milestone_id`), whatever the path calls it. */
const fieldOfPathId = new WeakMap<z.ZodType, string>();

/** User paths take either id of a user, as request bodies do (issue #59): the reference says so. */
const PATH_ID_DESCRIPTIONS: Record<string, string> = {
  user_id: "the user's id, or its party id (a record's buyer_id or seller_id): either names the same user",
};

/** Path ids by their place in the path, each with the name errors call it: pathIds({ id: 'milestone_id' }). */
export function pathIds<const K extends string>(fields: Record<K, string>) {
  const shape = {} as Record<K, z.ZodPipe<z.ZodString, z.ZodTransform<string, string>>>;
  for (const [name, field] of Object.entries(fields) as Array<[K, string]>) {
    // UUIDs are case-insensitive; the service compares them as stored (lower case).
    const schema = z
      .string()
      .transform((id) => id.toLowerCase())
      .openapi({ param: { name, in: 'path' }, format: 'uuid', description: PATH_ID_DESCRIPTIONS[field] ?? `the ${field}`, example: EXAMPLE_PATH_ID });
    fieldOfPathId.set(schema, field);
    shape[name] = schema;
  }
  return z.object(shape);
}

// ---------------------------------------------------------------------------------------------
// The checks before the schemas

type RequestParts = NonNullable<RouteConfig['request']>;

/**
 * What an operation checks before its schemas run, in the order the API has always kept: path ids
 * (named as errors name them), then a JSON body's content type, size, syntax and shape.
 */
function checkRequest(request: RequestParts | undefined): MiddlewareHandler<ApiEnv> | undefined {
  const params = request?.params as z.ZodObject | undefined;
  const ids = Object.entries(params?.shape ?? {}).map(([name, schema]) => [name, fieldOfPathId.get(schema as z.ZodType) ?? name] as const);
  const json = Boolean(request?.body?.content?.['application/json']);
  if (ids.length === 0 && !json) return undefined;
  return async (c, next) => {
    for (const [name, field] of ids) {
      if (!UUID.test(c.req.param(name) ?? '')) {
        throw new AppError('VALIDATION_ERROR', `${field} must be a UUID.`, [{ field, message: 'must be a UUID' }]);
      }
    }
    if (json) await checkJsonBody(c);
    await next();
  };
}

/**
 * Authentication, rate limit, Idempotency-Key, then the request's own checks (and an operation's own
 * `extra`): route middleware, run before the schemas' validators.
 */
export function middlewareOf(auth: Auth, request?: RequestParts, extra: MiddlewareHandler<ApiEnv>[] = []): MiddlewareHandler<ApiEnv>[] {
  const check = checkRequest(request);
  return [auth === 'operator' ? operatorAuth : clientAuth, idempotency, ...(check ? [check] : []), ...extra];
}

/** The OpenAPI fields of an operation besides request and responses. */
export function docsOf(docs: OperationDocs) {
  const acting = docs.actingParty ? `Acting party: the ${docs.actingParty}.` : undefined;
  const description = [docs.description, acting].filter(Boolean).join(' ');
  return {
    operationId: docs.operationId,
    tags: [docs.tag],
    summary: docs.summary,
    ...(description ? { description } : {}),
    security: [{ [docs.auth === 'operator' ? 'operatorKey' : 'secretKey']: [] }],
    ...(docs.actingParty ? { 'x-acting-party': docs.actingParty } : {}),
  };
}


type JsonBodyOf<Q> = Q extends { body: { content: { 'application/json': { schema: infer B extends z.ZodType } } } } ? z.input<B> : never;
/** An operation with a JSON body must carry an example of it: the reference builds its sample requests from it. */
type NamedExamples<B> = Record<string, { summary: string; value: B }>;
/** Named examples replace the one example in the document when an operation has several cases worth showing. */
type ExampleOf<Q> = [JsonBodyOf<Q>] extends [never]
  ? { example?: never; examples?: never }
  : { example: JsonBodyOf<Q>; examples?: NamedExamples<JsonBodyOf<Q>> };

/** The request as the document shows it: a JSON body with its example (or its named examples; OpenAPI allows one of the two). */
function withExample<Q extends RequestParts>(request: Q | undefined, example: unknown, examples: NamedExamples<unknown> | undefined): Q | undefined {
  const json = request?.body?.content?.['application/json'];
  if (!request?.body || !json || example === undefined) return request;
  const shown = examples ? { examples } : { example };
  return { ...request, body: { ...request.body, content: { ...request.body.content, 'application/json': { ...json, ...shown } } } };
}

/**
 * One /v1 operation that answers JSON: its path, method, request schemas (lib/contracts), an example of its
 * JSON body, the record it answers with, its errors and who may call it. The OpenAPI document, the
 * validators, the middleware and the dashboard's typed client all come from this one definition.
 */
export function operation<
  const M extends 'get' | 'post' | 'patch' | 'delete',
  const P extends string,
  const Q extends RequestParts,
  S extends z.ZodType,
>(def: OperationDocs & { method: M; path: P; request?: Q; response: S; middleware?: MiddlewareHandler<ApiEnv>[] } & ExampleOf<Q>) {
  const { method, path, request, response, middleware, example, examples, ...docs } = def;
  return createRoute({
    method,
    path,
    ...docsOf(docs),
    request: withExample(request, example, examples) as Q,
    responses: { ...jsonResponse(response), ...errorResponses(docs.errors) },
    middleware: middlewareOf(docs.auth, request, middleware),
  });
}

/** A JSON request body, required (an empty one reads as {}). */
export function jsonBody<S extends z.ZodType>(schema: S) {
  return { required: true as const, content: { 'application/json': { schema } } };
}
