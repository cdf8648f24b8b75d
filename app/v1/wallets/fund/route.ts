import { FundWalletBody } from '@/lib/contracts/wallets';
import { readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { fundWallet } from '@/lib/server/services/wallets';

export const POST = withClient(async ({ db, client, request, now }) =>
  ok('Wallet funded successfully', await fundWallet(db, client, await readJson(request, FundWalletBody), now)),
);
