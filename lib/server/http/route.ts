import 'server-only';
import { randomUUID } from 'node:crypto';
import type { NextRequest } from 'next/server';
import type { z } from 'zod';
import { getDb, type Db } from '../db/client';
import { env } from '../env';
import { AppError } from '../app-error';
import type { ClientRow } from '../db/schema';
import { authenticateClient, authenticateOperator } from './auth';
import { readBodyBytes } from './body';
import { idempotencyKeyOf, runIdempotently } from './idempotency';
import { cameThroughProductionServer, clientAddressOf } from './client-address';
import { serviceOrigin } from './service-origin';
import { countFailedAuthentication, refuseAddressOverFailures, takeToken } from './rate-limit';
import { describe, errorResponse, fieldErrors } from './respond';
import { logRequestLine } from './request-log';

type Params = Record<string, string>;
type Segment<P extends Params> = { params: Promise<P> };

export type RequestContext<P extends Params> = {
  db: Db;
  request: Request;
  params: P;
  /** The one clock of a request: services take time as an argument. */
  now: Date;
  /** Where this API is served, for the URLs of stored files. */
  baseUrl: string;
  requestId: string;
};
export type ClientContext<P extends Params> = RequestContext<P> & { client: ClientRow };

/** The operator's own scope for idempotency keys and rate limits: no client has the nil UUID. */
const OPERATOR_SCOPE = '00000000-0000-0000-0000-000000000000';

/** Next hands route handlers a NextRequest whose URL is already parsed; parsing it again cost 2% of a cheap read. */
function pathAndHostOf(request: Request): { pathname: string; host: string } {
  return (request as Partial<NextRequest>).nextUrl ?? new URL(request.url);
}

function logRequest(entry: { requestId: string; clientId?: string; request: Request; status: number; startedAt: number }) {
  // One line per request; never the Authorization header or a body.
  logRequestLine({
    level: entry.status >= 500 ? 'error' : 'info',
    msg: 'request',
    request_id: entry.requestId,
    client_id: entry.clientId ?? null,
    method: entry.request.method,
    route: pathAndHostOf(entry.request).pathname,
    status: entry.status,
    duration_ms: Math.round(performance.now() - entry.startedAt),
  });
}

/**
 * Where the caller reached this API, for the URLs of stored files: ESCROW_PUBLIC_URL when set, else the
 * Host header, or X-Forwarded-Host/Proto where the production server let them through (it drops them
 * unless a trusted proxy sent them); a header that names no usable host is passed over, never a 500.
 */
function publicBaseUrl(request: Request): string {
  const configured = env().ESCROW_PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const first = (value: string | null) => value?.split(',')[0]?.trim() || undefined;
  const forwarded = cameThroughProductionServer(request.headers);
  const forwardedProto = forwarded ? first(request.headers.get('x-forwarded-proto'))?.toLowerCase() : undefined;
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : request.url.startsWith('https:') ? 'https' : 'http';
  const forwardedHost = forwarded ? first(request.headers.get('x-forwarded-host')) : undefined;
  return serviceOrigin(proto, forwardedHost) ?? serviceOrigin(proto, first(request.headers.get('host'))) ?? new URL(request.url).origin;
}

function wrap<P extends Params, C>(
  authenticate: (db: Db, request: Request) => Promise<C & { scopeId: string; clockOffsetMs?: number }>,
  handler: (ctx: RequestContext<P> & C) => Promise<Response>,
) {
  return async (request: Request, segment: Segment<P>): Promise<Response> => {
    const startedAt = performance.now();
    const requestId = randomUUID();
    let scopeId: string | undefined;
    let response: Response;
    try {
      const db = await getDb();
      const address = clientAddressOf(request.headers);
      await refuseAddressOverFailures(db, address);
      const extra = await authenticate(db, request).catch(async (error: unknown) => {
        if (error instanceof AppError && error.code === 'UNAUTHORIZED') await countFailedAuthentication(db, address);
        throw error;
      });
      scopeId = extra.scopeId;
      await takeToken(db, scopeId);
      // A sandbox client's test clock runs ahead of the wall clock (decisions §10).
      const now = new Date(Date.now() + (extra.clockOffsetMs ?? 0));
      const params = await segment.params;
      let baseUrl: string | undefined;
      // Worked out only for the handlers that read it (most never do).
      const run = (database: Db, req: Request) =>
        handler({
          db: database,
          request: req,
          params,
          now,
          get baseUrl() {
            return (baseUrl ??= publicBaseUrl(request));
          },
          requestId,
          ...extra,
        });
      const key = idempotencyKeyOf(request);
      response = key ? await runIdempotently(db, { scopeId, key, request, now, run }) : await run(db, request);
    } catch (error) {
      response = errorResponse(error, requestId);
    }
    response.headers.set('x-request-id', requestId);
    logRequest({ requestId, clientId: scopeId === OPERATOR_SCOPE ? 'operator' : scopeId, request, status: response.status, startedAt });
    return response;
  };
}

/** Every client route: the secret key is checked and the client loaded before the handler runs. */
export function withClient<P extends Params = Params>(handler: (ctx: ClientContext<P>) => Promise<Response>) {
  return wrap<P, { client: ClientRow }>(async (db, request) => {
    const client = await authenticateClient(db, request);
    return { client, scopeId: client.id, clockOffsetMs: client.clockOffsetMs };
  }, handler);
}

export function withOperator<P extends Params = Params>(handler: (ctx: RequestContext<P>) => Promise<Response>) {
  return wrap<P, object>(async (_db, request) => {
    authenticateOperator(request);
    return { scopeId: OPERATOR_SCOPE };
  }, handler);
}

function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    throw new AppError('VALIDATION_ERROR', describe(errors), errors);
  }
  return parsed.data;
}

export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
  }
  const text = (await readBodyBytes(request)).toString('utf8');
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new AppError('INVALID_JSON', 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('VALIDATION_ERROR', 'The request body must be a JSON object.', [{ field: '(body)', message: 'must be a JSON object' }]);
  }
  return parseOrThrow(schema, body);
}

export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  return parseOrThrow(schema, Object.fromEntries(new URL(request.url).searchParams));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function idParam(value: string | undefined, name: string): string {
  if (!value || !UUID.test(value)) {
    throw new AppError('VALIDATION_ERROR', `${name} must be a UUID.`, [{ field: name, message: 'must be a UUID' }]);
  }
  return value.toLowerCase();
}
