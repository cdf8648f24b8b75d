'use server';

import type { ActionResult } from '@/lib/contracts/dashboard';
import { VerdictInput } from '@/lib/contracts/dashboard-disputes';
import { takesVerdict } from '@/lib/escrow/dispute-machine';
import { formatNaira } from '@/lib/escrow/money';
import { operatorEscrow } from '@/lib/server/escrow-client';
import { fromApi, guarded, notAllowed, notYours } from '@/lib/server/dashboard/action';
import { isDisputeDesk } from '@/lib/server/dashboard/actor';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { teamDispute } from '@/lib/server/dashboard/dispute-team';

/**
 * The dispute team's verdict. Only a dispute-team account may send it (the operator key is used for nobody
 * else), on a dispute within its reach (the demo team: the demo client's only); the dispute is re-read so a
 * verdict on one that left arbitration is refused here before the API.
 */
export async function decideVerdict(input: unknown): Promise<ActionResult> {
  return guarded(VerdictInput, input, async ({ dispute_id, idempotency_key, seller_amount, reason }, actor) => {
    if (!isDisputeDesk(actor)) return notAllowed('Only the dispute team gives a verdict.');
    const current = await teamDispute(actor, dispute_id);
    if (current.kind === 'not_found') return notYours('Dispute');
    if (current.kind === 'error') return fromApi(current.failure);
    if (!takesVerdict(current.view.status)) return notAllowed('This dispute is not waiting for a verdict.');
    if (seller_amount > current.view.max_dispute_amount) {
      return { ok: false, message: `The seller's share is between ${formatNaira(0)} and ${formatNaira(Math.round(current.view.max_dispute_amount * 100))}.`, errors: [{ field: 'seller_amount', message: 'is above the money held' }] };
    }
    const result = await operatorEscrow.disputes.verdict(dispute_id, { seller_amount, reason }, idempotency_key);
    if (result.ok) {
      // The verdict concerns the disputed deal's client, whose admins read it in their log.
      const transaction = current.view.milestone.transaction;
      await auditStaffAction(actor, 'verdict', { target: dispute_id, clientId: transaction.clientId, detail: { dispute_code: current.view.dispute_code, transaction_id: transaction.id, seller_amount } });
    }
    return fromApi(result);
  });
}
