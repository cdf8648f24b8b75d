import { z } from 'zod';
import { DISPUTE_STATUSES } from '../escrow/dispute-machine';
import { Id, NairaAmount, OptionalPaging, ShortText } from './common';

export const CreateDisputeBody = z.object({
  description: ShortText(5000),
  buyer_id: Id,
  seller_id: Id,
  milestone_id: Id,
});
export const AddDisputeAmountBody = z.object({ dispute_amount: NairaAmount, seller_id: Id });
export const ApproveDisputeAmountBody = z.object({ buyer_id: Id });
export const RejectDisputeAmountBody = z.object({
  buyer_id: Id,
  reason: z.string().trim().max(2000, 'is at most 2000 characters').optional(),
});
export const ListDisputesQuery = z.object({
  milestone_id: Id.optional(),
  status: z.enum(DISPUTE_STATUSES).optional(),
  ...OptionalPaging,
});
export type CreateDisputeBody = z.infer<typeof CreateDisputeBody>;
export type ListDisputesQuery = z.infer<typeof ListDisputesQuery>;
