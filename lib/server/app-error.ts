import 'server-only';
import { ERROR_STATUS, type ErrorCode } from '@/lib/contracts/error-codes';

export type FieldError = { field: string; message: string };

/** Errors as data: a stable code, a message a person can act on, and for bad input the fields at fault. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/** A unique value another record already holds: the envelope's existing_id names that record, for a program to follow. */
export class DuplicateError extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    errors: FieldError[],
    readonly existingId: string,
  ) {
    super(code, message, errors);
  }
}

export const notFound = (what: string, id: string) => new AppError('NOT_FOUND', `${what} ${id} was not found.`);
export const invalidState = (message: string) => new AppError('INVALID_STATE', message);
export const wrongParty = (message: string) => new AppError('WRONG_PARTY', message);
export const validation = (field: string, message: string) =>
  new AppError('VALIDATION_ERROR', `${field}: ${message}`, [{ field, message }]);
