import { z } from 'zod';
import { Id, OptionalPaging } from './common';

export const AccountNumber = z.string({ message: 'account_number is required' }).regex(/^\d{10}$/, 'account_number must be a 10-digit NUBAN');
export const BankCode = z.string({ message: 'bank_code is required' }).regex(/^\d{3,6}$/, 'bank_code must be 3 to 6 digits');

export const SaveBankAccountBody = z.object({ account_number: AccountNumber, bank_code: BankCode, user_id: Id });
export const ValidateBankAccountBody = z.object({ account_number: AccountNumber, bank_code: BankCode });
export const ListBankAccountsQuery = z.object({ user_id: Id.optional(), ...OptionalPaging });
export type SaveBankAccountBody = z.infer<typeof SaveBankAccountBody>;
export type ListBankAccountsQuery = z.infer<typeof ListBankAccountsQuery>;
