import 'server-only';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { getDb, type Db } from '../db/client';
import { AppError } from './app-error';
import { authenticateClient, authenticateOperator, type ClientRow } from './auth';
import { describe, errorResponse, fieldErrors } from './respond';

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

function wrap<P extends Params, C>(
  authenticate: (db: Db, request: Request) => Promise<C>,
  handler: (ctx: RequestContext<P> & C) => Promise<Response>,
) {
  return async (request: Request, segment: Segment<P>): Promise<Response> => {
    const requestId = randomUUID();
    let response: Response;
    try {
      const db = await getDb();
      const extra = await authenticate(db, request);
      const params = await segment.params;
      const baseUrl = new URL(request.url).origin;
      response = await handler({ db, request, params, now: new Date(), baseUrl, requestId, ...extra });
    } catch (error) {
      response = errorResponse(error, requestId);
    }
    response.headers.set('x-request-id', requestId);
    return response;
  };
}

/** Every client route: the secret key is checked and the client loaded before the handler runs. */
export function withClient<P extends Params = Params>(handler: (ctx: ClientContext<P>) => Promise<Response>) {
  return wrap<P, { client: ClientRow }>(async (db, request) => ({ client: await authenticateClient(db, request) }), handler);
}

export function withOperator<P extends Params = Params>(handler: (ctx: RequestContext<P>) => Promise<Response>) {
  return wrap<P, object>(async (_db, request) => {
    authenticateOperator(request);
    return {};
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
  const text = await request.text();
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
