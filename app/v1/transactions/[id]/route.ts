import { idParam, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { getTransaction } from '@/lib/server/services/transactions';

export const GET = withClient<{ id: string }>(async ({ db, client, params }) =>
  ok('Transaction retrieved successfully', await getTransaction(db, client, idParam(params.id, 'transaction_id'))),
);
