import { z } from 'zod';
import { IdRef, OptionalPaging } from './common';

export const AccountNumber = z.string().regex(/^\d{10}$/, 'must be a 10-digit NUBAN');
export const BankCode = z.string().regex(/^\d{3,6}$/, 'must be 3 to 6 digits');

export const SaveBankAccountBody = z.object({ account_number: AccountNumber, bank_code: BankCode, user_id: IdRef });
export const ValidateBankAccountBody = z.object({ account_number: AccountNumber, bank_code: BankCode });
export const ListBankAccountsQuery = z.object({ user_id: IdRef.optional(), ...OptionalPaging });
export type SaveBankAccountBody = z.infer<typeof SaveBankAccountBody>;
export type ListBankAccountsQuery = z.infer<typeof ListBankAccountsQuery>;
