import { z } from 'zod';
import { DISPUTE_STATUSES } from '../escrow/dispute-machine';
import { IdRef, NairaAmount, OptionalPaging, ShortText } from './common';

export const CreateDisputeBody = z.object({
  description: ShortText(5000),
  buyer_id: IdRef,
  seller_id: IdRef,
  milestone_id: IdRef,
});
export const AddDisputeAmountBody = z.object({ dispute_amount: NairaAmount, seller_id: IdRef });
export const ApproveDisputeAmountBody = z.object({ buyer_id: IdRef });
export const RejectDisputeAmountBody = z.object({
  buyer_id: IdRef,
  reason: z.string().trim().max(2000, 'is at most 2000 characters').optional(),
});
export const ListDisputesQuery = z.object({
  milestone_id: IdRef.optional(),
  status: z.enum(DISPUTE_STATUSES).optional(),
  ...OptionalPaging,
});
export type CreateDisputeBody = z.infer<typeof CreateDisputeBody>;
export type ListDisputesQuery = z.infer<typeof ListDisputesQuery>;
