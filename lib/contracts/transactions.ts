import { z } from 'zod';
import { INSPECTION_DAYS_DEFAULT } from '../escrow/deadlines';
import { COMMISSION_PAYERS, type CommissionPayer } from '../escrow/fees';
import { TRANSACTION_STATUSES } from '../escrow/milestone-machine';
import { includeParam } from './include';
import { Metadata, MetadataPatch } from './metadata';
import { TRANSACTION_INCLUDES } from './records';
import { AmountFilterParams, eitherParty, hasNoNul, IdRef, IsoInstant, ListFilterParams, PlainText, NO_NUL, OptionalPaging, PositiveAmount, ShortText, unlessMissing } from './common';

/** What a transaction gets for the optional fields it is created without (declared as the document's defaults). */
export const DEFAULT_COMMISSION_PAYER: CommissionPayer = 'SELLER_100';
export const DEFAULT_CATEGORY = 'GOODS';
export const DEFAULT_SUB_CATEGORY = 'Food/beverage/agriculture';

const ExternalReference = PlainText()
  .min(1, 'is 1 to 100 characters')
  .max(100, 'is 1 to 100 characters')
  .refine((reference) => reference.trim() !== '', 'must not be blank');

export const MilestoneInput = z.strictObject({
  title: ShortText(200),
  description: ShortText(5000),
  amount: PositiveAmount,
  due_date: IsoInstant('must be an ISO 8601 date-time').meta({
    description: 'When the seller must deliver by: ISO 8601 with an offset, later than now (a test key: its test clock). A due date not later than now is refused with 400 VALIDATION_ERROR naming milestones.{i}.due_date.',
    example: '2026-12-01T23:59:59.000+01:00',
  }),
  inspection_duration: z
    .number()
    .int()
    .min(1, 'is at least 1 day')
    .max(30, 'is at most 30 days')
    .optional()
    .meta({ default: INSPECTION_DAYS_DEFAULT, description: 'days the buyer has to inspect a delivery before it is accepted automatically' }),
  metadata: Metadata.optional(),
});

export const CreateTransactionBody = z.strictObject({
  title: ShortText(200),
  description: ShortText(5000),
  buyer_id: IdRef,
  seller_id: IdRef,
  milestones: z.array(MilestoneInput).min(1, 'needs at least one milestone').max(50, 'at most 50 milestones'),
  category: ShortText(100).optional().meta({ default: DEFAULT_CATEGORY }),
  sub_category: ShortText(100).optional().meta({ default: DEFAULT_SUB_CATEGORY }),
  commission_payer: z.enum(COMMISSION_PAYERS).optional().meta({ default: DEFAULT_COMMISSION_PAYER, description: 'who pays the escrow fee: the seller (default), the buyer, or half each' }),
  transaction_contract_url: z.url({ protocol: /^https$/, message: 'must be an https URL' }).refine(hasNoNul, NO_NUL).optional(),
  metadata: Metadata.optional(),
  external_reference: ExternalReference.optional().meta({
    description:
      'your own id for this deal (1–100 characters), unique among your transactions: a repeat is 409 DUPLICATE_EXTERNAL_REFERENCE whose existing_id is the transaction holding it. Find it again with GET /v1/transactions?external_reference=',
    example: 'ORD-2026-1042',
  }),
  fee_basis_points: z
    .number({ error: unlessMissing('must be a whole number from 0 to 10000') })
    .int('must be a whole number from 0 to 10000')
    .min(0, 'is at least 0')
    .max(10_000, 'is at most 10000')
    .optional()
    .meta({ description: "this transaction's fee rate in basis points (100 = 1%), in place of your account's; your account's fee cap still applies. Default: your account's rate", example: 150 }),
});
export type CreateTransactionBody = z.infer<typeof CreateTransactionBody>;

export const ListTransactionsQuery = z.object({
  user_id: IdRef.optional(),
  external_reference: ExternalReference.optional().meta({ description: 'only the transaction you created with this external_reference (exact match)', example: 'ORD-2026-1042' }),
  status: z.enum(TRANSACTION_STATUSES).optional(),
  ...ListFilterParams,
  search: ListFilterParams.search.meta({ description: 'only transactions whose title or external_reference contains this text (any case)' }),
  ...AmountFilterParams,
  ...OptionalPaging,
});
export type ListTransactionsQuery = z.infer<typeof ListTransactionsQuery>;

/** GET /v1/transactions/{id}: what to add to the record, comma-separated (Stripe's `expand`). */
export const GetTransactionQuery = z.object({
  include: includeParam(TRANSACTION_INCLUDES, "what the record carries besides: milestone_logs, each milestone's log lines; disputes, each milestone's latest dispute summed up"),
});
export type GetTransactionQuery = z.infer<typeof GetTransactionQuery>;

/** PATCH /v1/transactions/{id}: what may change after create (docs/decisions.md §19). */
export const UpdateTransactionBody = z.strictObject({ metadata: MetadataPatch });
export type UpdateTransactionBody = z.infer<typeof UpdateTransactionBody>;

export const FundMilestoneBody = z.strictObject({
  buyer_id: IdRef,
  acted_by: z
    .enum(['buyer', 'client'])
    .optional()
    .default('buyer')
    .meta({ description: "who made the call: the buyer (default), or the marketplace's staff funding for the buyer; the milestone log and the event's actor say which" }),
});

/** Ending a transaction early (docs/decisions.md §13): the acting party, and why. */
export const CancelTransactionBody = eitherParty({ reason: ShortText(2000) });
export const ApproveCancellationBody = eitherParty({});
export const DeclineCancellationBody = eitherParty({ reason: PlainText().trim().max(2000, 'is at most 2000 characters').optional() });
export const TerminateTransactionBody = eitherParty({ reason: ShortText(2000) });
export type CancelTransactionBody = z.infer<typeof CancelTransactionBody>;
export type DeclineCancellationBody = z.infer<typeof DeclineCancellationBody>;
export const RateTransactionBody = eitherParty({
  score: z.number({ error: unlessMissing('must be a whole number from 1 to 5') }).int('must be a whole number from 1 to 5').min(1, 'is at least 1').max(5, 'is at most 5'),
  comment: PlainText().trim().max(2000, 'is at most 2000 characters').optional(),
});
export type RateTransactionBody = z.infer<typeof RateTransactionBody>;
