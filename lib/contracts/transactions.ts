import { z } from 'zod';
import { COMMISSION_PAYERS } from '../escrow/fees';
import { TRANSACTION_STATUSES } from '../escrow/milestone-machine';
import { AmountFilterParams, eitherParty, hasNoNul, IdRef, ListFilterParams, PlainText, NO_NUL, OptionalPaging, PositiveAmount, ShortText, unlessMissing } from './common';

export const MilestoneInput = z.object({
  title: ShortText(200),
  description: ShortText(5000),
  amount: PositiveAmount,
  due_date: z.iso.datetime({ offset: true, error: unlessMissing('must be an ISO 8601 date-time') }).meta({
    description: 'When the seller must deliver by: ISO 8601 with an offset, later than now (a test key: its test clock). A due date not later than now is refused with 400 VALIDATION_ERROR naming milestones.{i}.due_date.',
    example: '2026-12-01T23:59:59.000+01:00',
  }),
  inspection_duration: z.number().int().min(1, 'is at least 1 day').max(30, 'is at most 30 days').optional(),
});

export const CreateTransactionBody = z.object({
  title: ShortText(200),
  description: ShortText(5000),
  buyer_id: IdRef,
  seller_id: IdRef,
  milestones: z.array(MilestoneInput).min(1, 'needs at least one milestone').max(50, 'at most 50 milestones'),
  category: ShortText(100).optional(),
  sub_category: ShortText(100).optional(),
  commission_payer: z.enum(COMMISSION_PAYERS).optional(),
  transaction_contract_url: z.url({ protocol: /^https$/, message: 'must be an https URL' }).refine(hasNoNul, NO_NUL).optional(),
});
export type CreateTransactionBody = z.infer<typeof CreateTransactionBody>;

export const ListTransactionsQuery = z.object({
  user_id: IdRef.optional(),
  status: z.enum(TRANSACTION_STATUSES).optional(),
  ...ListFilterParams,
  search: ListFilterParams.search.meta({ description: 'only transactions whose title contains this text (any case)' }),
  ...AmountFilterParams,
  ...OptionalPaging,
});
export type ListTransactionsQuery = z.infer<typeof ListTransactionsQuery>;

export const FundMilestoneBody = z.object({
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
