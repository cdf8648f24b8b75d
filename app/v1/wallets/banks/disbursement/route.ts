import { SaveBankAccountBody } from '@/lib/contracts/banks';
import { readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { saveBankAccount } from '@/lib/server/services/bank-accounts';

export const POST = withClient(async ({ db, client, request, now }) => {
  const { created, account } = await saveBankAccount(db, client, await readJson(request, SaveBankAccountBody), now);
  return ok(created ? 'Disbursement account created successfully' : 'Disbursement account already saved', account);
});
