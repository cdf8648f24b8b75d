import { z } from 'zod';
import { IdRef, PlainText, ProofUrls, ShortText, unlessMissing } from './common';

export const DeliverBody = z.object({ seller_id: IdRef, proofs_of_completion: ProofUrls });
export const BuyerActionBody = z.object({ buyer_id: IdRef });
export const SellerActionBody = z.object({ seller_id: IdRef });
export const RejectDeliveryBody = z.object({
  buyer_id: IdRef,
  rejection_reason: ShortText(2000),
  proofs_of_return: ProofUrls,
});
export type DeliverBody = z.infer<typeof DeliverBody>;
export type RejectDeliveryBody = z.infer<typeof RejectDeliveryBody>;

/** The seller asks to move an undelivered milestone's due date (docs/decisions.md §13). */
export const RequestExtensionBody = z.object({
  seller_id: IdRef,
  due_date: z.iso.datetime({ offset: true, error: unlessMissing('must be an ISO 8601 date-time') }).meta({
    description: 'The new due date: later than now (a test key: its test clock) and than the current due date, else 400 VALIDATION_ERROR naming due_date.',
  }),
  reason: ShortText(2000),
});
export const DeclineExtensionBody = z.object({ buyer_id: IdRef, reason: PlainText().trim().max(2000, 'is at most 2000 characters').optional() });
export type RequestExtensionBody = z.infer<typeof RequestExtensionBody>;
export type DeclineExtensionBody = z.infer<typeof DeclineExtensionBody>;
