'use server';

import { MilestoneIntentInput, type ActionResult } from '@/lib/contracts/dashboard';
import { guarded, notAllowed } from '@/lib/server/dashboard/action';
import { cardPaymentResult } from '@/lib/server/dashboard/checkout-outcome';
import { milestoneBy } from '@/lib/server/dashboard/ownership';
import { requestOrigin } from '@/lib/server/dashboard/request-origin';

/**
 * The buyer pays a milestone by card (docs/decisions.md §16): a checkout for it whose payment page sends the browser
 * back to this transaction's page, where the outcome is read from the API (never trusted from the return alone).
 */
export const payMilestoneByCard = guarded(
  { input: MilestoneIntentInput, owns: milestoneBy(['buyer'], 'Only the buyer pays for a milestone.') },
  async ({ milestone_id, idempotency_key }, { owned }): Promise<ActionResult<{ authorization_url: string }>> => {
    const { transaction } = owned.record;
    const origin = await requestOrigin();
    if (!origin) return notAllowed('The payment page could not be opened from here: reload the page and try again.');
    const callback_url = `${origin}/transactions/${transaction.id}`;
    const result = await owned.api.call('POST /checkouts', { json: { buyer_id: transaction.buyer.user_id, milestone_id, callback_url }, idempotencyKey: idempotency_key });
    // Only a web page is somewhere to send the browser.
    if (result.ok && !/^https?:\/\//.test(result.data.authorization_url)) return notAllowed('The payment provider gave no payment page: try again later.');
    return cardPaymentResult(result, (checkout) => ({ authorization_url: checkout.authorization_url }));
  },
);
