import { withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { listBanks } from '@/lib/server/services/bank-accounts';

export const GET = withClient(async () => ok('Banks retrieved successfully', listBanks()));
