'use server';

import type { ActionResult } from '@/lib/contracts/dashboard';
import { MarkAllNotificationsReadInput, MarkNotificationsReadInput } from '@/lib/contracts/dashboard-disputes';
import { guarded, notAllowed } from '@/lib/server/dashboard/action';
import { markAllNotificationsRead, markNotificationsRead } from '@/lib/server/dashboard/notifications';

/** Opening the bell: everything up to the newest event it showed is read, for this account only (id from the session). */
export const markRead = guarded(
  { input: MarkNotificationsReadInput, role: ['admin', 'customer'], refused: 'The operator and the dispute team have no notifications here.', viewerMayRun: true },
  async ({ through }, { actor }): Promise<ActionResult> => {
    return (await markNotificationsRead(actor, through)) ? { ok: true, message: 'Notifications read' } : notAllowed('That notification was not found.');
  },
);

/** "Mark all read": every notification of this account so far, not only those on screen. A viewer may too. */
export const markAllRead = guarded(
  { input: MarkAllNotificationsReadInput, role: ['admin', 'customer'], refused: 'The operator and the dispute team have no notifications here.', viewerMayRun: true },
  async (_values, { actor }): Promise<ActionResult> => {
    return (await markAllNotificationsRead(actor))
      ? { ok: true, message: 'All notifications marked read' }
      : { ok: false, message: 'The notifications could not be marked read. Try again.' };
  },
);
