import 'server-only';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { pagination } from '@/lib/contracts/common';
import type { ListBankAccountsQuery, SaveBankAccountBody } from '@/lib/contracts/banks';
import type { BankAccountRecord } from '@/lib/contracts/records';
import { findBank, NIGERIAN_BANKS, type Bank } from '@/lib/escrow/banks';
import { nubanProblem } from '@/lib/escrow/nuban';
import type { Db } from '../db/client';
import { bankAccounts, users } from '../db/schema';
import { AppError, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { uuidv7 } from '../ids';
import { nameEnquiryProvider } from '../name-enquiry/provider';
import { iso } from '../records/iso';
import { loadWallet, userRecord } from '../records/people';
import { findUser } from './users';

type BankAccountRow = typeof bankAccounts.$inferSelect;

function bankAccountRecord(a: BankAccountRow): BankAccountRecord {
  return {
    id: a.id,
    wallet_id: a.walletId,
    account_number: a.accountNumber,
    account_name: a.accountName,
    bank_code: a.bankCode,
    pgA_transfer_recipient: a.pgATransferRecipient,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

export function listBanks() {
  return NIGERIAN_BANKS.map((b) => ({ code: b.code, name: b.name }));
}

function checkedBank(accountNumber: string, bankCode: string): Bank {
  const bank = findBank(bankCode);
  if (!bank) throw new AppError('VALIDATION_ERROR', `Unknown bank_code ${bankCode}: see GET /v1/wallets/banks.`, [{ field: 'bank_code', message: 'unknown bank code' }]);
  const problem = nubanProblem(accountNumber, bankCode);
  if (problem) throw new AppError('INVALID_ACCOUNT_NUMBER', problem, [{ field: 'account_number', message: problem }]);
  return bank;
}

export async function validateBankAccount(accountNumber: string, bankCode: string) {
  const bank = checkedBank(accountNumber, bankCode);
  const accountName = await nameEnquiryProvider().resolveAccountName(accountNumber, bank);
  return { account_number: accountNumber, account_name: accountName, bank_code: bank.code, bank_name: bank.name };
}

/** Saving the same account again returns the saved one, so a retried save is harmless. */
export async function saveBankAccount(db: Db, client: ClientRow, body: SaveBankAccountBody, now: Date) {
  const user = await findUser(db, client.id, body.user_id);
  const bank = checkedBank(body.account_number, body.bank_code);
  const wallet = await loadWallet(db, user.id);
  if (!wallet) throw notFound('Wallet of user', user.id);
  const accountName = await nameEnquiryProvider().resolveAccountName(body.account_number, bank);
  const [inserted] = await db
    .insert(bankAccounts)
    .values({
      id: uuidv7(),
      clientId: client.id,
      userId: user.id,
      walletId: wallet.wallet.id,
      accountNumber: body.account_number,
      accountName,
      bankCode: bank.code,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { created: true, account: bankAccountRecord(inserted) };
  const [existing] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.walletId, wallet.wallet.id), eq(bankAccounts.bankCode, bank.code), eq(bankAccounts.accountNumber, body.account_number)));
  if (!existing) throw new Error('bank account vanished after a conflict');
  return { created: false, account: bankAccountRecord(existing) };
}

export async function listBankAccounts(db: Db, client: ClientRow, q: ListBankAccountsQuery) {
  const where = and(eq(bankAccounts.clientId, client.id), q.user_id ? eq(bankAccounts.userId, q.user_id) : undefined);
  const order = q.sort === 'ASC' ? [asc(bankAccounts.createdAt), asc(bankAccounts.id)] : [desc(bankAccounts.createdAt), desc(bankAccounts.id)];
  const [rows, [total]] = await Promise.all([
    db.select({ account: bankAccounts, user: users }).from(bankAccounts).innerJoin(users, eq(users.id, bankAccounts.userId)).where(where).orderBy(...order).limit(q.limit).offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(bankAccounts).where(where),
  ]);
  return {
    bank_accounts: rows.map((r) => ({
      ...bankAccountRecord(r.account),
      bank_name: findBank(r.account.bankCode)?.name ?? r.account.bankCode,
      user: userRecord(r.user),
    })),
    pagination: pagination(q.page, q.limit, total?.n ?? 0),
  };
}
