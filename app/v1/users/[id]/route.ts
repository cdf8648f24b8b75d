import { idParam, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { getUser } from '@/lib/server/services/users';

export const GET = withClient<{ id: string }>(async ({ db, client, params }) =>
  ok('User retrieved successfully', await getUser(db, client, idParam(params.id, 'user_id'))),
);
