import { ListBankAccountsQuery } from '@/lib/contracts/banks';
import { readQuery, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { listBankAccounts } from '@/lib/server/services/bank-accounts';

export const GET = withClient(async ({ db, client, request }) =>
  ok('Bank accounts retrieved successfully', await listBankAccounts(db, client, readQuery(request, ListBankAccountsQuery))),
);
