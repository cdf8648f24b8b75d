'use server';

import type { ActionResult } from '@/lib/contracts/dashboard';
import { PayoutHelperInput, UpdateSettingsInput, type ClientSettings } from '@/lib/contracts/dashboard-payouts';
import { escrowFor } from '@/lib/server/escrow-client';
import { fromApi, guarded } from '@/lib/server/dashboard/action';
import { auditStaffAction } from '@/lib/server/dashboard/audit';

const admins = { role: 'admin', refused: 'Only an admin of the marketplace can do this.' } as const;

/** Sandbox only (the API answers 403 for live keys): a payout on its way fails, or a paid one comes back. */
export const settlePayoutInSandbox = guarded(
  { input: PayoutHelperInput, ...admins },
  async ({ payout_id, outcome, reason, idempotency_key }, { actor }): Promise<ActionResult<{ status: string }>> => {
    const body = reason ? { reason } : {};
    const result =
      outcome === 'fail' ? await escrowFor(actor).call('POST /test-helpers/payouts/:id/fail', { param: { id: payout_id }, json: body, idempotencyKey: idempotency_key }) : await escrowFor(actor).call('POST /test-helpers/payouts/:id/reverse', { param: { id: payout_id }, json: body, idempotencyKey: idempotency_key });
    if (!result.ok && result.code === 'INVALID_STATE') {
      return {
        ok: false,
        message: outcome === 'fail' ? 'Only a payout still on its way can be made to fail; this one has moved on.' : 'Only a paid payout can be reversed; this one is not paid.',
      };
    }
    if (!result.ok && result.code === 'LIVE_MODE_FORBIDDEN') return { ok: false, message: 'Payouts can be failed or reversed by hand only in the sandbox.' };
    if (result.ok) await auditStaffAction(actor, outcome === 'fail' ? 'payout_failed' : 'payout_reversed', { target: payout_id, detail: reason ? { reason } : {} });
    return fromApi(result, (payout) => ({ status: payout.status }));
  },
);

export const updateSettings = guarded(
  { input: UpdateSettingsInput, ...admins },
  async ({ auto_payout, idempotency_key }, { actor }): Promise<ActionResult<ClientSettings>> => {
    const result = await escrowFor(actor).call('PATCH /settings', { json: { auto_payout }, idempotencyKey: idempotency_key });
    if (!result.ok) return fromApi(result);
    await auditStaffAction(actor, 'settings_changed', { target: 'auto_payout', detail: { auto_payout: result.data.auto_payout } });
    return {
      ok: true,
      message: result.data.auto_payout ? 'Releases to sellers with a saved account are now paid out automatically.' : 'Releases now stay in the sellers’ wallets until they withdraw.',
      data: result.data,
    };
  },
);
