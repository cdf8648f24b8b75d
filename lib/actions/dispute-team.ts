'use server';

import type { ActionResult } from '@/lib/contracts/dashboard';
import { VerdictInput } from '@/lib/contracts/dashboard-disputes';
import { takesVerdict } from '@/lib/escrow/dispute-machine';
import { formatNaira } from '@/lib/escrow/money';
import { operatorEscrow } from '@/lib/server/escrow-client';
import { fromApi, guarded, notAllowed } from '@/lib/server/dashboard/action';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { disputeInReach } from '@/lib/server/dashboard/dispute-team';

/**
 * The dispute team's verdict. Only a dispute-team account may send it (the operator key is used for nobody
 * else), on a dispute within its reach (the demo team: the demo client's only); the dispute is re-read so a
 * verdict on one that left arbitration is refused here before the API.
 */
export const decideVerdict = guarded(
  { input: VerdictInput, role: ['dispute_team', 'operator'], refused: 'Only the dispute team gives a verdict.', owns: disputeInReach },
  async ({ dispute_id, idempotency_key, seller_amount, reason }, { actor, owned: dispute }): Promise<ActionResult> => {
    if (!takesVerdict(dispute.status)) return notAllowed('This dispute is not waiting for a verdict.');
    if (seller_amount > dispute.max_dispute_amount) {
      return { ok: false, message: `The seller's share is between ${formatNaira(0)} and ${formatNaira(Math.round(dispute.max_dispute_amount * 100))}.`, errors: [{ field: 'seller_amount', message: 'is above the money held' }] };
    }
    const result = await operatorEscrow.call('POST /operator/disputes/:id/verdict', { param: { id: dispute_id }, json: { seller_amount, reason }, idempotencyKey: idempotency_key });
    if (result.ok) {
      // The verdict concerns the disputed deal's client, whose admins read it in their log.
      const transaction = dispute.milestone.transaction;
      await auditStaffAction(actor, 'verdict', { target: dispute_id, clientId: transaction.clientId, detail: { dispute_code: dispute.dispute_code, transaction_id: transaction.id, seller_amount } });
    }
    return fromApi(result);
  },
);
