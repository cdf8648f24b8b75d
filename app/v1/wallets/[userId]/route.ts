import { idParam, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { getWallet } from '@/lib/server/services/wallets';

export const GET = withClient<{ userId: string }>(async ({ db, client, params }) =>
  ok('Wallet retrieved successfully', await getWallet(db, client, idParam(params.userId, 'user_id'))),
);
