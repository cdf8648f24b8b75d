import 'server-only';
import { z } from 'zod';
import type { ErrorEnvelope } from '@/lib/contracts/common';
import { databaseErrorOf } from '../db/database-error';
import { loggableError } from '../log-error';
import { AppError, type FieldError } from '../app-error';

export function ok(message: string, data: unknown): Response {
  return Response.json({ status: true, message, data }, { status: 200 });
}

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: issue.path.join('.') || '(body)', message: issue.message }));
}

function envelope(error: AppError): ErrorEnvelope {
  return { status: false, message: error.message, code: error.code, ...(error.errors ? { errors: error.errors } : {}) };
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

export function errorResponse(error: unknown, requestId?: string): Response {
  const known = error instanceof AppError ? error : error instanceof z.ZodError ? null : fromDatabase(error);
  if (known) return Response.json(envelope(known), { status: known.status, headers: known.headers });
  if (error instanceof z.ZodError) {
    const errors = fieldErrors(error);
    return Response.json(envelope(new AppError('VALIDATION_ERROR', describe(errors), errors)), { status: 400 });
  }
  // Internals stay in the server log (never a query's parameters or a secret); the caller gets a request id to quote.
  console.error(JSON.stringify({ level: 'error', msg: 'request failed', request_id: requestId, error: loggableError(error) }));
  return Response.json(
    envelope(new AppError('INTERNAL_ERROR', `Something went wrong on our side.${requestId ? ` Quote request id ${requestId}.` : ''}`)),
    { status: 500 },
  );
}

export function describe(errors: FieldError[]): string {
  return `Invalid request: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`;
}
