'use server';

import { RollKeyInput, type ActionResult, type RolledKey } from '@/lib/contracts/dashboard';
import { getDb } from '@/lib/server/db/client';
import { storeClientKey } from '@/lib/server/dashboard/client-keys';
import { fromApi, guarded, notAllowed } from '@/lib/server/dashboard/action';
import { auditStaffAction } from '@/lib/server/dashboard/audit';
import { dashboardEnv } from '@/lib/server/dashboard/config';
import { escrowFor } from '@/lib/server/escrow-client';

/**
 * Rolls the marketplace's secret key and shows the new one once. The dashboard stores the new key (sealed)
 * before answering, so it goes on working when the old one expires. A dashboard given its key in
 * ESCROW_API_KEY cannot rewrite its environment, so it refuses rather than strand itself.
 */
export const rollKey = guarded(
  { input: RollKeyInput, role: 'admin', refused: 'Only an admin of the marketplace rolls its API key.' },
  async ({ expires_in_hours, idempotency_key }, { actor }): Promise<ActionResult<RolledKey>> => {
    if (dashboardEnv().ESCROW_API_KEY) {
      return notAllowed('This dashboard acts with the key in its ESCROW_API_KEY setting: roll the key with POST /v1/keys/roll, then put the new key in that setting.');
    }
    const result = await escrowFor(actor).call('POST /keys/roll', { json: { expires_in_hours }, idempotencyKey: idempotency_key });
    // No secret_key: an Idempotency-Key replay of a roll already made (and already audited).
    if (result.ok && result.data.secret_key) {
      await storeClientKey(await getDb(), actor.clientId, result.data.secret_key, new Date());
      await auditStaffAction(actor, 'key_rolled', { target: result.data.id, detail: { last4: result.data.last4, previous_keys_expire_at: result.data.previous_keys_expire_at } });
    }
    return fromApi(result, (rolled) => rolled);
  },
);
