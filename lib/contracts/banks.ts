import { z } from 'zod';
import { IdRef, OptionalPaging } from './common';

export const AccountNumber = z.string().regex(/^\d{10}$/, 'must be a 10-digit NUBAN');
export const BankCode = z.string().regex(/^\d{3,6}$/, 'must be 3 to 6 digits');

export const SaveBankAccountBody = z.strictObject({ account_number: AccountNumber, bank_code: BankCode, user_id: IdRef });
export const ValidateBankAccountBody = z.strictObject({ account_number: AccountNumber, bank_code: BankCode });
export const ListBankAccountsQuery = z.object({ user_id: IdRef.optional(), ...OptionalPaging });
export type SaveBankAccountBody = z.infer<typeof SaveBankAccountBody>;
export type ListBankAccountsQuery = z.infer<typeof ListBankAccountsQuery>;

/**
 * Accounts whose sandbox answers are known in advance (the sandbox names an account by a hash of its bank and
 * number): for a user named Ngozi Nwosu, the first resolves to her name, the second to someone else's, and
 * the third fails its NUBAN check digit (400 INVALID_ACCOUNT_NUMBER) before any bank is asked. docs/api.md lists them.
 */
export const SANDBOX_ACCOUNT_HOLDER = { first_name: 'Ngozi', last_name: 'Nwosu' } as const;
export const SANDBOX_ACCOUNTS = {
  matching: { bank_code: '058', account_number: '0016563228', account_name: 'NGOZI NWOSU' },
  notMatching: { bank_code: '058', account_number: '0000000001', account_name: 'ZAINAB IBRAHIM' },
  failing: { bank_code: '058', account_number: '0016563229' },
} as const;

/** The sandbox accounts as the reference's named request examples, each body built by `body`. */
export function sandboxAccountExamples<B>(body: (account: { bank_code: string; account_number: string }) => B) {
  const { matching, notMatching, failing } = SANDBOX_ACCOUNTS;
  const holder = `${SANDBOX_ACCOUNT_HOLDER.first_name} ${SANDBOX_ACCOUNT_HOLDER.last_name}`;
  return {
    matching: { summary: `Sandbox: resolves to ${matching.account_name}, the name of a user ${holder}`, value: body(matching) },
    not_matching: { summary: `Sandbox: resolves to ${notMatching.account_name}, not ${holder} (saved with name_matches false)`, value: body(notMatching) },
    failing: { summary: 'Sandbox: fails, 400 INVALID_ACCOUNT_NUMBER (wrong NUBAN check digit)', value: body(failing) },
  };
}
