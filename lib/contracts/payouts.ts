/** Payouts (docs/decisions.md §11): the request schemas and the record every payout answer carries. */
import { z } from 'zod';
import { PAYOUT_STATUSES } from '../escrow/payouts';
import { STATEMENT_LINE_KINDS } from '../escrow/statements';
import { Metadata, MetadataRecord } from './metadata';
import { UserRecord } from './records';
import { AfterParam, AmountFilterParams, Id, IdRef, IsoInstant, ListFilterParams, NullableTimestamp, Pagination, PlainText, PositiveAmount, Timestamp, unlessMissing, OptionalLimit, OptionalPage } from './common';

export const CreatePayoutBody = z.strictObject({
  user_id: IdRef,
  amount: PositiveAmount,
  bank_account_id: IdRef.optional().meta({ description: "one of the user's saved accounts; without it, the one saved most recently" }),
  metadata: Metadata.optional(),
});
export type CreatePayoutBody = z.infer<typeof CreatePayoutBody>;

export const PayoutStatus = z.enum(PAYOUT_STATUSES, { error: unlessMissing(`must be one of ${PAYOUT_STATUSES.join(', ')}`) });

export const ListPayoutsQuery = z.object({
  user_id: IdRef.optional(),
  status: PayoutStatus.optional(),
  ...ListFilterParams,
  search: ListFilterParams.search.meta({ description: "only payouts whose reference, account name or account number contains this text (any case)" }),
  ...AmountFilterParams,
  after: AfterParam,
  page: OptionalPage,
  limit: OptionalLimit,
});
export type ListPayoutsQuery = z.infer<typeof ListPayoutsQuery>;

/** The sandbox's test helpers: a reason to record, or a default one. */
export const PayoutHelperBody = z.strictObject({ reason: PlainText().trim().min(1).max(200).optional() });

const Naira = z.number().meta({ description: 'naira' });

/** A credit of the wallet a payout pays out, first in first out (docs/decisions.md §18). */
export const PayoutSourceRecord = z
  .object({
    kind: z.enum(STATEMENT_LINE_KINDS),
    amount: Naira,
    transaction_id: Id.nullable(),
    milestone_id: Id.nullable(),
    at: Timestamp.meta({ description: 'when the credit reached the wallet' }),
  })
  .strict();

export const PayoutRecord = z
  .object({
    id: Id,
    reference: z.string().meta({ description: 'ours (PO_…): what the provider receives, so a repeated send can never pay twice' }),
    user_id: Id,
    wallet_id: Id,
    bank_account: z
      .object({ id: Id, account_number: z.string(), account_name: z.string(), bank_code: z.string(), bank_name: z.string() })
      .strict()
      .meta({ description: 'as it was when the payout was made' }),
    amount: Naira,
    currency: z.literal('NGN'),
    status: PayoutStatus,
    failure_reason: z.string().nullable(),
    provider: z.enum(['sandbox', 'paystack']),
    provider_reference: z.string().nullable(),
    milestone_id: Id.nullable().meta({ description: 'the release it pays out, when auto_payout started it' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    paid_at: NullableTimestamp,
    failed_at: NullableTimestamp,
    reversed_at: NullableTimestamp,
    metadata: MetadataRecord,
    sources: z.array(PayoutSourceRecord).meta({ description: "the wallet's credits it pays out, first in first out; they sum to its amount" }),
  })
  .strict();
export type PayoutRecord = z.infer<typeof PayoutRecord>;

/** A payouts list's entry carries its user, so a list names whose each payout is without a read per row. */
export const PayoutListEntryRecord = PayoutRecord.extend({ user: UserRecord.meta({ description: 'whose wallet the payout is from' }) }).strict();
export type PayoutListEntryRecord = z.infer<typeof PayoutListEntryRecord>;

export const PayoutListRecord = z.object({ payouts: z.array(PayoutListEntryRecord), pagination: Pagination }).strict();

/** The calling client's own settings. */
export const ClientSettingsRecord = z.object({ auto_payout: z.boolean() }).strict();
export const UpdateClientSettingsBody = z.strictObject({ auto_payout: z.boolean({ error: unlessMissing('must be true or false') }) });

const Instant = IsoInstant();

export const ReconciliationQuery = z
  .object({ from: Instant.optional(), to: Instant.optional() })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { message: 'must not be after to', path: ['from'] });

export const ReconciliationRecord = z
  .object({
    from: Timestamp,
    to: Timestamp,
    checked: z.object({ payouts: z.number().int(), provider_events: z.number().int(), ledger_transfers: z.number().int() }).strict(),
    reconciled: z.boolean().meta({ description: 'true when nothing is listed' }),
    mismatches: z.array(
      z
        .object({
          kind: z.enum(['stuck_processing', 'outcome_without_transfer', 'transfer_without_outcome']),
          client_id: Id.nullable(),
          payout_id: Id.nullable(),
          reference: z.string(),
          amount: Naira.nullable(),
          at: Timestamp,
          detail: z.string(),
        })
        .strict(),
    ),
  })
  .strict();
