import 'server-only';
import type { Context, TypedResponse } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { JSONParsed } from 'hono/utils/types';
import { z } from 'zod';
import type { ErrorEnvelope } from '@/lib/contracts/common';
import { noteDatabaseFailure } from '@/lib/server/db/availability';
import { databaseErrorOf, databaseUnavailability, type Unavailability } from '@/lib/server/db/database-error';
import { AppError, DuplicateError, type FieldError } from '@/lib/server/app-error';
import { log } from '@/lib/server/logger';
import type { ApiEnv } from './env';

/**
 * A JSON answer with its length: one write, and compression (middleware/compression.ts) can tell a
 * small body, which goes out plain, without reading it again.
 */
export function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  return new Response(text, { status, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers } });
}

type Success<T> = { status: true; message: string; data: T };

/** Every success: HTTP 200 with {status: true, message, data} (docs/decisions.md §1), typed for the routes' clients. */
export function ok<T>(message: string, data: T) {
  return json({ status: true, message, data }, 200) as Response & TypedResponse<JSONParsed<Success<T>>, 200, 'json'>;
}

const fieldOf = (path: PropertyKey[]) => path.map(String).join('.');

export const UNKNOWN_FIELD_MESSAGE = 'is not a field of this request';

/** The fields a body sent that its operation does not have (strict schemas report them as unrecognized keys). */
function unknownFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => ({ field: fieldOf([...issue.path, key]), message: UNKNOWN_FIELD_MESSAGE })) : [],
  );
}

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? [] : [{ field: fieldOf(issue.path) || '(body)', message: issue.message }]));
}

export function describe(errors: FieldError[]): string {
  return `Invalid request: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`;
}

/**
 * A schema's refusal as the 400 envelope. Unknown fields win the code (UNKNOWN_FIELD, docs/api.md): a
 * misspelt field is most often why the others look wrong; every other field at fault is listed after them.
 */
export function invalidRequest(error: z.ZodError): AppError {
  const unknown = unknownFieldErrors(error);
  const others = fieldErrors(error);
  if (unknown.length === 0) return new AppError('VALIDATION_ERROR', describe(others), others);
  const names = unknown.map((e) => e.field).join(', ');
  const rest = others.length > 0 ? ` ${describe(others)}` : '';
  return new AppError('UNKNOWN_FIELD', `Unknown field${unknown.length > 1 ? 's' : ''}: ${names} (not fields of this request; check the spelling).${rest}`, [...unknown, ...others]);
}

export function envelope(error: AppError): ErrorEnvelope {
  return {
    status: false,
    message: error.message,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error instanceof DuplicateError ? { existing_id: error.existingId } : {}),
  };
}

/** PostgreSQL check/unique violations that mean a race lost, not a bug: answered as the rule they enforce. */
function fromDatabase(error: unknown): AppError | undefined {
  const pgError = databaseErrorOf(error);
  if (pgError?.code === '23514' && pgError.constraint === 'ledger_accounts_no_overdraft') {
    return new AppError('INSUFFICIENT_FUNDS', 'The balance is not enough for this movement of money.');
  }
  if (pgError?.code === '23514' && pgError.constraint === 'ledger_accounts_exact_range') {
    return new AppError('LIMIT_EXCEEDED', 'This would take a balance beyond what the ledger can count exactly (about ₦90 trillion).');
  }
  if (pgError?.code === '23505') {
    return new AppError('CONFLICT', 'The record was changed by another request at the same time; retry.');
  }
  return undefined;
}

/**
 * The validators of @hono/zod-openapi answer with an HTTPException; the body check (body.ts) runs
 * first and lets through only what they accept, so these are a safety net in the API's own words.
 */
function fromHttpException(error: HTTPException): AppError | undefined {
  if (error.status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
  if (error.status === 400) return new AppError('INVALID_JSON', 'The request body is not valid JSON.');
  return undefined;
}

/** How long a client is asked to wait before trying again while the database cannot answer. */
export const RETRY_AFTER_UNAVAILABLE_S = 5;

/** 503 in words that say whether the request may have been applied, and so how to send it again. */
function unavailable(unavailability: Unavailability, method: string): AppError {
  const reads = method === 'GET' || method === 'HEAD';
  const message = reads
    ? `The database is not answering right now. Try again in ${RETRY_AFTER_UNAVAILABLE_S} s.`
    : unavailability === 'out_of_space'
      ? `The database's disk is full, so nothing was stored and nothing was changed; the server has logged it for its operator. Try again later (with the same Idempotency-Key, if you sent one).`
      : unavailability === 'maybe_applied'
      ? `The database stopped answering while this request was being applied: it may or may not have been. Send it again in ${RETRY_AFTER_UNAVAILABLE_S} s with the same Idempotency-Key, which applies it once either way.`
      : `The database is not answering right now: nothing was changed. Try again in ${RETRY_AFTER_UNAVAILABLE_S} s (with the same Idempotency-Key, if you sent one).`;
  return new AppError('SERVICE_UNAVAILABLE', message, undefined, { 'retry-after': String(RETRY_AFTER_UNAVAILABLE_S) });
}

export function errorResponse(error: unknown, requestId?: string, method = 'POST'): Response {
  const unavailability = databaseUnavailability(error);
  if (unavailability) {
    noteDatabaseFailure(error);
    return errorResponse(unavailable(unavailability, method), requestId, method);
  }
  const known =
    error instanceof AppError ? error : error instanceof z.ZodError ? undefined : error instanceof HTTPException ? fromHttpException(error) : fromDatabase(error);
  if (known) return json(envelope(known), known.status, known.headers);
  if (error instanceof z.ZodError) return errorResponse(invalidRequest(error));
  // Internals stay in the server log (never a query's parameters or a secret); the caller gets a request id to quote.
  log.error({ msg: 'request failed', request_id: requestId, error });
  return json(envelope(new AppError('INTERNAL_ERROR', `Something went wrong on our side.${requestId ? ` Quote request id ${requestId}.` : ''}`)), 500);
}

/**
 * The error answer in place of whatever answer the request had so far (a handler's 200 whose transaction then failed
 * to commit): Hono copies a replaced answer's headers onto the new one, its Content-Length among them, which would
 * announce bytes the error's body does not have. The answer so far is dropped first.
 */
export function answerWithError(c: Context<ApiEnv>, error: unknown): Response {
  c.res = undefined;
  return errorResponse(error, c.var.requestId, c.req.method);
}
