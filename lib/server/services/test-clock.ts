import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { runDueDeadlines } from '../deadlines/runner';
import { settleSandboxPayouts } from '../payouts/runner';
import { expireDueCheckouts } from '../checkouts/settle';
import { AppError } from '../app-error';
import type { ClientRow } from '../db/schema';
import { changeClient } from '../client-cache';

export function testClock(client: ClientRow, wallNow: Date) {
  return { now: new Date(wallNow.getTime() + client.clockOffsetMs).toISOString(), offset_ms: client.clockOffsetMs };
}

/**
 * Moves a sandbox client's time forward (docs/decisions.md §10) and settles, before answering, every deadline
 * that lapses on the way, so the integrator sees each lapse happen in the response's aftermath.
 */
export async function advanceTestClock(db: Db, client: ClientRow, body: { seconds?: number; days?: number }) {
  if (client.mode !== 'test') {
    throw new AppError('LIVE_MODE_FORBIDDEN', 'The test clock is for sandbox (test) keys only: live time cannot be moved.');
  }
  const ms = Math.round(((body.seconds ?? 0) + (body.days ?? 0) * 86_400) * 1000);
  const wallNow = new Date();
  // The clock moves and its lapses settle in one database transaction: the background runner sees the
  // new clock only once they are settled, so `settled` counts every lapse of this move (it raced them).
  // Every server answers with the new clock once this has answered.
  const { updated, settled, paid } = await changeClient(db, client.id, async (tx) => {
    const [moved] = await tx
      .update(clients)
      .set({ clockOffsetMs: sql`${clients.clockOffsetMs} + ${ms}` })
      .where(eq(clients.id, client.id))
      .returning();
    if (!moved) throw new Error('client vanished');
    const { acted: settled } = await runDueDeadlines(tx, { wallNow, clientId: client.id, wait: true });
    // Sandbox payouts are paid on this clock too (docs/decisions.md §11), those the lapses just started included.
    const paid = await settleSandboxPayouts(tx, { wallNow, clientId: client.id });
    // And checkouts expire on it (docs/decisions.md §16).
    await expireDueCheckouts(tx, { wallNow, clientId: client.id });
    return { updated: moved, settled, paid };
  });
  return { ...testClock(updated, wallNow), settled, payouts_paid: paid };
}
