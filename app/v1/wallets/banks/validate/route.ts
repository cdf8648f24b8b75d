import { ValidateBankAccountBody } from '@/lib/contracts/banks';
import { readJson, withClient } from '@/lib/server/http/route';
import { ok } from '@/lib/server/http/respond';
import { validateBankAccount } from '@/lib/server/services/bank-accounts';

export const POST = withClient(async ({ request }) => {
  const body = await readJson(request, ValidateBankAccountBody);
  return ok('Account name retrieved successfully', await validateBankAccount(body.account_number, body.bank_code));
});
