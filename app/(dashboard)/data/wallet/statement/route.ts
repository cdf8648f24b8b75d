import { StatementDownloadQuery } from '@/lib/contracts/dashboard-statements';
import { badRequest, forbidden, json, withActor } from '@/lib/server/dashboard/route-json';
import { statementCsv } from '@/lib/server/dashboard/statements';

/**
 * A month's wallet statement as the API's CSV (docs/decisions.md §18): a customer's own wallet only, an admin any
 * customer's of its client (?user_id=; the API answers 404 for anyone else's, as it is asked with the admin's key).
 */
export const GET = withActor(async (actor, request) => {
  const query = StatementDownloadQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return badRequest('Ask for a month such as 2026-11 (and, as an admin, the customer’s id).');
  const { month, user_id } = query.data;
  let userId: string;
  if (actor.kind === 'customer') {
    if (user_id && user_id !== actor.escrowUserId) return forbidden();
    userId = actor.escrowUserId;
  } else if (actor.kind === 'admin') {
    if (!user_id) return badRequest('user_id must be a customer id.');
    userId = user_id;
  } else {
    return forbidden();
  }
  const answer = await statementCsv(actor, userId, month);
  if (answer.status === 404) return json(404, { message: 'Wallet was not found.' });
  const type = answer.headers.get('content-type') ?? '';
  if (!answer.ok || !type.startsWith('text/csv')) return json(502, { message: 'The statement could not be read just now. Try again in a moment.' });
  return new Response(answer.body, {
    headers: {
      'content-type': type,
      'content-disposition': month ? `attachment; filename="statement-${month}.csv"` : (answer.headers.get('content-disposition') ?? 'attachment; filename="statement.csv"'),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});
