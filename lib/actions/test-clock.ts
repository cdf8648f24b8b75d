'use server';

import type { ActionResult } from '@/lib/contracts/dashboard';
import { AdvanceClockInput, advanceSeconds, type TestClock } from '@/lib/contracts/dashboard-disputes';
import { escrowFor } from '@/lib/server/escrow-client';
import { fromApi, guarded } from '@/lib/server/dashboard/action';
import { auditStaffAction } from '@/lib/server/dashboard/audit';

/** Sandbox only (the API answers 403 for live keys): moves the client's clock and settles every lapse on the way. */
export const advanceTestClock = guarded(
  { input: AdvanceClockInput, role: 'admin', refused: 'Only an admin of the marketplace moves its test clock.' },
  async (values, { actor }): Promise<ActionResult<TestClock>> => {
    const result = await escrowFor(actor).call('POST /test-clock/advance', { json: { seconds: advanceSeconds(values) }, idempotencyKey: values.idempotency_key });
    if (result.ok) await auditStaffAction(actor, 'clock_advanced', { detail: { amount: values.amount, unit: values.unit } });
    return fromApi(result, (clock) => clock);
  },
);
