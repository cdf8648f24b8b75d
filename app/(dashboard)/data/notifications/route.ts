import { json, withActor } from '@/lib/server/dashboard/route-json';
import { notificationsView } from '@/lib/server/dashboard/notifications';

/** The bell's lines for the signed-in person only: the filter runs here, on the session's ids. */
export const GET = withActor(async (actor) => {
  const view = await notificationsView(actor);
  return view.ok ? json(200, view.value) : json(502, { message: view.failure.message });
});
