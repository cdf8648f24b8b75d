import { z } from 'zod';
import { parseNaira } from '../escrow/money';

/**
 * Messages name no field: the error envelope pairs each with its field, and the summary reads
 * "buyer_id is required; amount must not be negative".
 */
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type') {
      return issue.input === undefined ? 'is required' : `must be ${issue.expected === 'array' ? 'an array' : `a ${issue.expected}`}`;
    }
    if (issue.code === 'unrecognized_keys') return `has unknown fields: ${issue.keys.join(', ')}`;
    return undefined;
  },
});

/** A field-specific message for a present-but-wrong value; a missing one still reads "is required". */
export const unlessMissing = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : message);

/**
 * PostgreSQL text cannot hold U+0000: a value with it would fail its insert or query as a 500. Every
 * free-text field, query parameter and URL of a request refuses it here, as bad input.
 */
export const NO_NUL = 'must not contain NUL characters (\\u0000)';
export const hasNoNul = (value: string) => !value.includes('\u0000');
/** Any text a request carries: a string without NUL characters. */
export const PlainText = () => z.string().refine(hasNoNul, NO_NUL);

export const Id = z.uuid({ error: unlessMissing('must be a UUID') });
/** An id a request refers to: UUIDs are case-insensitive, and the service compares them as stored (lower case). */
export const IdRef = Id.transform((id) => id.toLowerCase());
/**
 * An ISO 8601 date-time with an offset whose instant PostgreSQL can store: years 0001–9999 in UTC
 * ("0001-01-01T00:00:00+01:00" is in year 0, which it has not).
 */
export const IsoInstant = (message = 'must be an ISO 8601 date-time such as 2026-11-25T00:00:00Z') =>
  z.iso.datetime({ offset: true, error: unlessMissing(message) }).refine((value) => {
    const year = new Date(value).getUTCFullYear();
    return year >= 1 && year <= 9999;
  }, 'must fall between the years 0001 and 9999 in UTC');
export const Timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds', example: '2026-11-21T09:30:00.000Z' });
export const NullableTimestamp = Timestamp.nullable();

/** Naira as a JSON number with at most 2 decimals (docs/decisions.md §4); services convert it to kobo. */
export const NairaAmount = z
  .number({ error: unlessMissing('must be a number of naira') })
  .superRefine((value, ctx) => {
    const parsed = parseNaira(value);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
  })
  .meta({ description: 'Amount in naira (NGN), at most 2 decimal places', example: 25000.5 });

export const PositiveAmount = NairaAmount.refine((v) => v > 0, 'must be greater than 0');

const digits = () => z.string().regex(/^\d{1,6}$/, 'must be a whole number');

// A query string carries digits; the document shows the integer they mean, so generated clients send numbers.
export const PageParam = digits()
  .transform(Number)
  .pipe(z.number().int().min(1, 'starts at 1'))
  .meta({ type: 'integer', minimum: 1, maximum: 999_999, description: 'the page number, from 1' });
export const LimitParam = digits()
  .transform(Number)
  .pipe(z.number().int().min(1).max(100, 'is at most 100'))
  .meta({ type: 'integer', minimum: 1, maximum: 100, description: 'rows per page, 1 to 100' });
/** The paging parameters as most lists take them: absent, page 1 of 20 rows (the defaults declared for the document too). */
export const OptionalPage = PageParam.optional().default(1).meta({ default: 1 });
export const OptionalLimit = LimitParam.optional().default(20).meta({ default: 20 });
export const SortParam = z.enum(['DESC', 'ASC'], { error: unlessMissing('must be DESC or ASC') });

/** A calendar day in Lagos, YYYY-MM-DD, that exists (no 2026-02-30). */
export const LagosDayParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((day) => {
    const date = new Date(`${day}T00:00:00.000Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
  }, 'must be a date that exists');

/** Naira as a query string: digits, with at most 2 decimals ("1500" or "1500.50"). */
export const NairaParam = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, 'must be an amount of naira with at most 2 decimals')
  .transform(Number);

/**
 * The search, created-day and amount filters a list of records takes (issue #27): days are Lagos days,
 * both ends included; amounts are naira, both ends included.
 */
export const ListFilterParams = {
  search: PlainText().trim().max(100, 'is at most 100 characters').optional(),
  created_from: LagosDayParam.optional().meta({ description: 'only records created on or after this Lagos day (YYYY-MM-DD)', example: '2026-11-01' }),
  created_to: LagosDayParam.optional().meta({ description: 'only records created on or before this Lagos day (YYYY-MM-DD)', example: '2026-11-30' }),
};
export const AmountFilterParams = {
  amount_min: NairaParam.optional().meta({ description: 'only records of at least this many naira', example: '1000' }),
  amount_max: NairaParam.optional().meta({ description: 'only records of at most this many naira', example: '50000.50' }),
};

/** Cursor paging (issue #28): the id of a row of the same list; the page holds the rows that follow it in the list's order. */
export const AfterParam = IdRef.optional().meta({
  description:
    "a row id of this list (from `pagination.nextAfter`): the page holds the rows that follow it in the requested order, with the same filters; not with `page` other than 1. `pagination.total` still counts the whole filtered list",
});

export const OptionalPaging = {
  after: AfterParam,
  page: OptionalPage,
  limit: OptionalLimit,
  sort: SortParam.optional().default('DESC'),
};

export const Pagination = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    prevPage: z.number().int().nullable(),
    nextPage: z.number().int().nullable(),
    currentPage: z.number().int(),
    total: z.number().int(),
    pageCount: z.number().int(),
    pagingCounter: z.number().int(),
    hasPrevPage: z.boolean(),
    hasNextPage: z.boolean(),
    nextAfter: z.string().nullable().meta({
      description:
        'the cursor for the next page: pass it as `after` to get the rows that follow this page (null when none follow). For large lists page by `after`: its cost does not grow with depth, while `page` reads and skips every row before the page',
    }),
  })
  .strict();
export type Pagination = z.infer<typeof Pagination>;

/**
 * The pagination object of one page. `nextAfter` is the last row's id when more rows follow (a cursor page
 * knows that by having read one row past its end, as page mode may); `total` is the whole filtered list's.
 */
export function pagination(page: number, limit: number, total: number, nextAfter: string | null = null, byCursor = false): Pagination {
  const pageCount = Math.max(1, Math.ceil(total / limit));
  if (byCursor) {
    // A cursor page has no page number of its own: what follows is told by nextAfter alone.
    return { ...pagination(1, limit, total), nextPage: null, hasNextPage: nextAfter !== null, nextAfter };
  }
  return {
    page,
    limit,
    prevPage: page > 1 ? page - 1 : null,
    nextPage: page < pageCount ? page + 1 : null,
    currentPage: page,
    total,
    pageCount,
    pagingCounter: (page - 1) * limit + 1,
    hasPrevPage: page > 1,
    hasNextPage: page < pageCount,
    nextAfter,
  };
}

export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal(true), message: z.string(), data }).strict();
}

export const ErrorEnvelope = z
  .object({
    status: z.literal(false),
    message: z.string(),
    code: z.string().meta({ description: 'stable UPPER_SNAKE error code' }),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    existing_id: Id.optional().meta({ description: 'with a 409 for a value already taken (DUPLICATE_EXTERNAL_REFERENCE): the id of the record that holds it' }),
  })
  .strict();
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** A proof is a file stored with this service (its /v1/files URL) or an https URL of the integrator's own storage. */
export const ProofUrl = z.url({ error: unlessMissing('must be a URL') }).max(2048).refine(hasNoNul, NO_NUL);
export const ProofUrls = z
  .union([ProofUrl.transform((url) => [url]), z.array(ProofUrl).min(1, 'at least one proof is required').max(20, 'at most 20 proofs')], {
    error: unlessMissing('must be a URL or a list of 1 to 20 URLs'),
  })
  .meta({ description: 'URLs of files uploaded with POST /v1/files (or https URLs of your own storage)' });

export const ShortText = (max = 200) => PlainText().trim().min(1, 'must not be empty').max(max, `is at most ${max} characters`);

/**
 * A body for an operation either party may take (escalation, evidence, cancellation): it names who acts
 * by buyer_id or seller_id, exactly one of them.
 */
export const eitherParty = <T extends z.ZodRawShape>(shape: T) =>
  z
    .strictObject({ buyer_id: IdRef.optional(), seller_id: IdRef.optional(), ...shape })
    .superRefine((body, ctx) => {
      const { buyer_id, seller_id } = body as { buyer_id?: string; seller_id?: string };
      const named = [buyer_id, seller_id].filter(Boolean).length;
      if (named !== 1) ctx.addIssue({ code: 'custom', path: ['buyer_id'], message: 'send exactly one of buyer_id or seller_id: the party acting' });
    });

/** The party an either-party body names (eitherParty guarantees exactly one). */
export function actingPartyOf(body: { buyer_id?: string; seller_id?: string }): { role: 'buyer' | 'seller'; id: string } {
  return body.buyer_id ? { role: 'buyer', id: body.buyer_id } : { role: 'seller', id: body.seller_id! };
}
