import { z } from 'zod';
import { IdRef, IsoInstant, PlainText, PositiveAmount, ProofUrls, ShortText } from './common';

export const DeliverBody = z.strictObject({ seller_id: IdRef, proofs_of_completion: ProofUrls });
export const BuyerActionBody = z.strictObject({ buyer_id: IdRef });
export const SellerActionBody = z.strictObject({ seller_id: IdRef });
export const RejectDeliveryBody = z.strictObject({
  buyer_id: IdRef,
  rejection_reason: ShortText(2000),
  proofs_of_return: ProofUrls,
});
export type DeliverBody = z.infer<typeof DeliverBody>;
export type RejectDeliveryBody = z.infer<typeof RejectDeliveryBody>;

/** The seller asks to move an undelivered milestone's due date (docs/decisions.md §13). */
export const RequestExtensionBody = z.strictObject({
  seller_id: IdRef,
  due_date: IsoInstant('must be an ISO 8601 date-time').meta({
    description: 'The new due date: later than now (a test key: its test clock) and than the current due date, else 400 VALIDATION_ERROR naming due_date.',
  }),
  reason: ShortText(2000),
});
export const DeclineExtensionBody = z.strictObject({ buyer_id: IdRef, reason: PlainText().trim().max(2000, 'is at most 2000 characters').optional() });
export type RequestExtensionBody = z.infer<typeof RequestExtensionBody>;
export type DeclineExtensionBody = z.infer<typeof DeclineExtensionBody>;

/** The seller gives back part or all of what the milestone holds (docs/decisions.md §17). */
export const RefundMilestoneBody = z.strictObject({
  seller_id: IdRef,
  amount: PositiveAmount.meta({
    description: "Naira of the milestone's price to give back, at most what the escrow still holds of it; the buyer's prepaid fee share on it comes back on top.",
  }),
  reason: ShortText(2000),
});
/** The buyer proposes to pay part of a delivery under inspection (docs/decisions.md §17). */
export const ProposePartialAcceptanceBody = z.strictObject({
  buyer_id: IdRef,
  release_amount: PositiveAmount.meta({ description: 'Naira for the seller: more than 0 and less than what the escrow holds of the price; the rest goes back to the buyer.' }),
  reason: ShortText(2000),
});
export const DeclinePartialAcceptanceBody = z.strictObject({ seller_id: IdRef, reason: PlainText().trim().max(2000, 'is at most 2000 characters').optional() });
export type RefundMilestoneBody = z.infer<typeof RefundMilestoneBody>;
export type ProposePartialAcceptanceBody = z.infer<typeof ProposePartialAcceptanceBody>;
export type DeclinePartialAcceptanceBody = z.infer<typeof DeclinePartialAcceptanceBody>;
