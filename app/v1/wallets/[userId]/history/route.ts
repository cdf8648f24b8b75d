import { WalletHistoryQuery } from '@/lib/contracts/wallets';
import { idParam, readQuery, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { walletHistory } from '@/lib/server/services/wallets';

export const GET = withClient<{ userId: string }>(async ({ db, client, request, params }) =>
  ok('Wallet history retrieved successfully', await walletHistory(db, client, idParam(params.userId, 'user_id'), readQuery(request, WalletHistoryQuery))),
);
