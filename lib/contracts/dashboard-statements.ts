/**
 * Form inputs and page data of the wallet's card top-up, statement and checkouts (docs/decisions.md §16, §18).
 * As in dashboard.ts: the API's request schemas without the acting user's id (the server takes it from the
 * session), plus the form's Idempotency-Key.
 */
import { z } from 'zod';
import { Id, PositiveAmount, type Pagination } from './common';
import type { CheckoutRecord } from './checkouts';
import { IdempotencyKey } from './dashboard';
import type { StatementRecord } from './wallets';

/** A customer adds money to its own wallet by card: the amount only (the wallet and the return page are the server's). */
export const CardTopUpInput = z.object({ amount: PositiveAmount, idempotency_key: IdempotencyKey });
export type CardTopUpInput = z.infer<typeof CardTopUpInput>;

/** A calendar month, as the statement's month picker sends it. */
export const StatementMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month such as 2026-11');

/** The statement CSV route's query: a month (the current one when left out), and the customer for an admin. */
export const StatementDownloadQuery = z.object({ month: StatementMonth.optional(), user_id: Id.optional() });

/** A checkout's reference, as the payment page sends the browser back with it. */
export const CheckoutReference = z.string().regex(/^CO_[A-Z0-9]{20}$/);

// Response shapes the pages render (types only).
export type Statement = StatementRecord;
export type StatementLine = StatementRecord['lines'][number];
/** A statement and the month it covers ("2026-11"). */
export type StatementView = { statement: Statement; month: string };
export type Checkout = CheckoutRecord;
export type CheckoutsView = { checkouts: Checkout[]; pagination: Pagination };
