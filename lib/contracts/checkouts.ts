/** Checkouts (docs/decisions.md §16): the request schemas and the record every checkout answer carries. */
import { z } from 'zod';
import { Metadata, MetadataRecord } from './metadata';
import { CHECKOUT_PURPOSES, CHECKOUT_STATUSES } from '../escrow/checkouts';
import { Id, IdRef, NullableTimestamp, Pagination, PlainText, PositiveAmount, Timestamp, hasNoNul, NO_NUL, unlessMissing, OptionalLimit, OptionalPage } from './common';

/** Your own labels, returned as given: the limits every record's metadata has (docs/decisions.md §19). */
export const CheckoutMetadata = Metadata;

export const CreateCheckoutBody = z
  .strictObject({
    buyer_id: IdRef,
    milestone_id: IdRef.optional().meta({ description: 'fund this milestone: the amount is the funding amount (the price plus the buyer’s fee share)' }),
    amount: PositiveAmount.optional().meta({ description: 'naira to add to the buyer’s wallet' }),
    callback_url: z
      .url({ error: unlessMissing('must be a URL') })
      .max(2048)
      .refine(hasNoNul, NO_NUL)
      .optional()
      .meta({ description: 'where the payment page sends the browser back, with ?reference=…: https only (plain http to this machine with test keys)' }),
    metadata: CheckoutMetadata.optional(),
  })
  .superRefine((body, ctx) => {
    const named = [body.milestone_id, body.amount].filter((v) => v !== undefined).length;
    if (named !== 1) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'send exactly one of milestone_id (fund a milestone) or amount (add money to the wallet)' });
  });
export type CreateCheckoutBody = z.infer<typeof CreateCheckoutBody>;

export const CheckoutStatus = z.enum(CHECKOUT_STATUSES, { error: unlessMissing(`must be one of ${CHECKOUT_STATUSES.join(', ')}`) });

export const ListCheckoutsQuery = z.object({
  user_id: IdRef.optional(),
  status: CheckoutStatus.optional(),
  page: OptionalPage,
  limit: OptionalLimit,
});
export type ListCheckoutsQuery = z.infer<typeof ListCheckoutsQuery>;

/** The sandbox's failure helper: a reason to record, or a default one. */
export const CheckoutHelperBody = z.strictObject({ reason: PlainText().trim().min(1).max(200).optional() });

export const CheckoutRecord = z
  .object({
    id: Id,
    reference: z.string().meta({ description: 'ours (CO_…): what the payment provider receives; a reference credits the wallet once' }),
    user_id: Id,
    purpose: z.enum(CHECKOUT_PURPOSES),
    milestone_id: Id.nullable(),
    transaction_id: Id.nullable(),
    amount: z.number().meta({ description: 'naira' }),
    currency: z.literal('NGN'),
    status: CheckoutStatus,
    authorization_url: z.string().meta({ description: 'the payment page to send the buyer to' }),
    callback_url: z.string().nullable(),
    applied: z.boolean().nullable().meta({ description: 'once PAID: whether its purpose was carried out (the milestone funded); the money is in the wallet either way' }),
    not_applied_reason: z.string().nullable(),
    channel: z.string().nullable().meta({ description: 'how the buyer paid (card, bank, ussd…), as the provider says' }),
    failure_reason: z.string().nullable(),
    provider: z.enum(['sandbox', 'paystack']),
    metadata: MetadataRecord,
    expires_at: Timestamp,
    created_at: Timestamp,
    paid_at: NullableTimestamp,
    failed_at: NullableTimestamp,
    expired_at: NullableTimestamp,
  })
  .strict();
export type CheckoutRecord = z.infer<typeof CheckoutRecord>;

export const CheckoutListRecord = z.object({ checkouts: z.array(CheckoutRecord), pagination: Pagination }).strict();
