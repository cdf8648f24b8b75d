import { z } from 'zod';
import { IdRef, ProofUrls, ShortText } from './common';

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
