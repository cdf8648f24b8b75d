import { z } from 'zod';
import { DISPUTE_STATUSES } from '../escrow/dispute-machine';
import { eitherParty, IdRef, NairaAmount, OptionalPaging, PlainText, ProofUrl, ShortText, SortParam } from './common';

export const CreateDisputeBody = z.strictObject({
  description: ShortText(5000),
  buyer_id: IdRef,
  seller_id: IdRef,
  milestone_id: IdRef,
  opened_by: z
    .enum(['buyer', 'seller'])
    .optional()
    .default('seller')
    .meta({ description: 'the party opening it: after a rejected return either may (the buyer so that its held money is not left waiting on the seller)' }),
});
export const AddDisputeAmountBody = z.strictObject({ dispute_amount: NairaAmount, seller_id: IdRef });
export const ApproveDisputeAmountBody = z.strictObject({ buyer_id: IdRef });
export const RejectDisputeAmountBody = z.strictObject({
  buyer_id: IdRef,
  reason: PlainText().trim().max(2000, 'is at most 2000 characters').optional(),
});
/** The buyer offers the amount it is prepared to pay the seller (docs/decisions.md §13). */
export const CounterOfferBody = z.strictObject({
  buyer_id: IdRef,
  amount: NairaAmount.meta({ description: "the seller's share the buyer offers, 0 up to max_dispute_amount" }),
  reason: PlainText().trim().max(2000, 'is at most 2000 characters').optional(),
});
export const AcceptCounterOfferBody = z.strictObject({ seller_id: IdRef });
export type CounterOfferBody = z.infer<typeof CounterOfferBody>;
export const ListDisputesQuery = z.object({
  milestone_id: IdRef.optional(),
  status: z.enum(DISPUTE_STATUSES).optional(),
  ...OptionalPaging,
});
export type CreateDisputeBody = z.infer<typeof CreateDisputeBody>;
export type ListDisputesQuery = z.infer<typeof ListDisputesQuery>;

export const EscalateDisputeBody = eitherParty({});
export const SubmitEvidenceBody = eitherParty({
  text: ShortText(10_000),
  files: z.array(ProofUrl).max(20, 'at most 20 files').optional().default([]).meta({ description: 'URLs of files uploaded with POST /v1/files' }),
});
export const ExtendEvidenceBody = eitherParty({ reason: ShortText(2000) });
export type ExtendEvidenceBody = z.infer<typeof ExtendEvidenceBody>;
export const CancelDisputeBody = z.strictObject({ seller_id: IdRef, cancellation_agreement_details: ShortText(5000) });
export const VerdictBody = z.strictObject({
  seller_amount: NairaAmount.meta({ description: "the seller's share of the escrow, 0 up to max_dispute_amount" }),
  reason: ShortText(5000),
});
/** The queue reads oldest first: the longest-waiting dispute is decided first. */
/** `client_id` narrows the queue to one client: the demo dispute team sees only the demo client's (docs/decisions.md §14). */
export const OperatorDisputesQuery = z.object({
  status: z.enum(DISPUTE_STATUSES).optional(),
  awaiting_verdict: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'true: only the disputes the dispute team may decide now (ARBITRATION and ARBITRATION_DECLINED)' }),
  client_id: IdRef.optional(),
  ...OptionalPaging,
  sort: SortParam.optional().default('ASC'),
});
export type SubmitEvidenceBody = z.infer<typeof SubmitEvidenceBody>;
