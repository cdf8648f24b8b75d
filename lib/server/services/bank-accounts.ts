import 'server-only';
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { pagination } from '@/lib/contracts/common';
import type { ListBankAccountsQuery, SaveBankAccountBody } from '@/lib/contracts/banks';
import type { BankAccountRecord } from '@/lib/contracts/records';
import { findBank, NIGERIAN_BANKS, type Bank } from '@/lib/escrow/banks';
import { namesMatch } from '@/lib/escrow/names';
import { nubanProblem } from '@/lib/escrow/nuban';
import type { Db } from '../db/client';
import { checkPageRequest, followingRow, pageAndNext, requireCursorRow } from '../db/paged-list';
import { bankAccounts, payouts, users } from '../db/schema';
import { AppError, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { uuidv7 } from '../ids';
import { nameEnquiryProviderFor } from '../providers';
import { ProviderError } from '../providers/provider';
import { iso } from '../records/iso';
import { findUser, loadWallet, userIdOfFilter, userRecord } from '../records/people';

type BankAccountRow = typeof bankAccounts.$inferSelect;

export function bankAccountRecord(a: BankAccountRow): BankAccountRecord {
  return {
    id: a.id,
    wallet_id: a.walletId,
    account_number: a.accountNumber,
    account_name: a.accountName,
    bank_code: a.bankCode,
    bank_name: findBank(a.bankCode)?.name ?? a.bankCode,
    name_matches: a.nameMatches,
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

/** The bank's name for the account, through the client's provider; its refusals in words a person can act on. */
async function lookUpName(client: ClientRow, accountNumber: string, bank: Bank): Promise<string> {
  try {
    return await nameEnquiryProviderFor(client).resolveAccountName(accountNumber, bank);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.kind === 'UNAVAILABLE') throw new AppError('PROVIDER_UNAVAILABLE', `The bank could not be asked for the account's name just now: try again. (${error.message})`);
    const problem = `${bank.name} has no account ${accountNumber}.`;
    throw new AppError('INVALID_ACCOUNT_NUMBER', problem, [{ field: 'account_number', message: problem }]);
  }
}

export async function validateBankAccount(client: ClientRow, accountNumber: string, bankCode: string) {
  const bank = checkedBank(accountNumber, bankCode);
  const accountName = await lookUpName(client, accountNumber, bank);
  return { account_number: accountNumber, account_name: accountName, bank_code: bank.code, bank_name: bank.name };
}

/**
 * Saving the same account again returns the saved one, so a retried save is harmless; an account an admin
 * removed comes back. Whether the bank's name for it is the user's is kept on the record (name_matches):
 * the dashboard asks for a confirmation before saving one that is not.
 */
export async function saveBankAccount(db: Db, client: ClientRow, body: SaveBankAccountBody, now: Date) {
  const user = await findUser(db, client.id, body.user_id);
  const bank = checkedBank(body.account_number, body.bank_code);
  const wallet = await loadWallet(db, user.id);
  if (!wallet) throw notFound('Wallet of user', user.id);
  const accountName = await lookUpName(client, body.account_number, bank);
  const nameMatches = namesMatch({ firstName: user.firstName, lastName: user.lastName }, accountName);
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
      nameMatches,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { created: true, account: bankAccountRecord(inserted) };
  const same = and(eq(bankAccounts.walletId, wallet.wallet.id), eq(bankAccounts.bankCode, bank.code), eq(bankAccounts.accountNumber, body.account_number));
  const [restored] = await db
    .update(bankAccounts)
    .set({ removedAt: null, accountName, nameMatches, createdAt: now, updatedAt: now })
    .where(and(same, sql`${bankAccounts.removedAt} is not null`))
    .returning();
  if (restored) return { created: true, account: bankAccountRecord(restored) };
  const [existing] = await db.select().from(bankAccounts).where(same);
  if (!existing) throw new Error('bank account vanished after a conflict');
  return { created: false, account: bankAccountRecord(existing) };
}

/**
 * Removes a saved account: never paid to again, kept for the payouts that name it. One with a payout on
 * its way is refused (409): the provider may still pay or return it.
 */
export async function removeBankAccount(db: Db, client: ClientRow, bankAccountId: string, now: Date) {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select()
      .from(bankAccounts)
      .where(and(eq(bankAccounts.id, bankAccountId), eq(bankAccounts.clientId, client.id), isNull(bankAccounts.removedAt)))
      .for('update');
    if (!account) throw notFound('Bank account', bankAccountId);
    const [inFlight] = await tx
      .select({ reference: payouts.reference })
      .from(payouts)
      .where(and(eq(payouts.bankAccountId, account.id), inArray(payouts.status, ['PENDING', 'PROCESSING'])))
      .limit(1);
    if (inFlight) throw new AppError('INVALID_STATE', `Payout ${inFlight.reference} to this account is still on its way: remove the account once it is paid or failed.`);
    const [removed] = await tx.update(bankAccounts).set({ removedAt: now, updatedAt: now }).where(eq(bankAccounts.id, account.id)).returning();
    return bankAccountRecord(removed!);
  });
}

export async function listBankAccounts(db: Db, client: ClientRow, q: ListBankAccountsQuery) {
  const userId = q.user_id ? await userIdOfFilter(db, client.id, q.user_id) : undefined;
  const where = and(eq(bankAccounts.clientId, client.id), isNull(bankAccounts.removedAt), userId ? eq(bankAccounts.userId, userId) : undefined);
  const order = q.sort === 'ASC' ? [asc(bankAccounts.createdAt), asc(bankAccounts.id)] : [desc(bankAccounts.createdAt), desc(bankAccounts.id)];
  checkPageRequest(q);
  // A removed account is no longer in the list, so it is no cursor either.
  if (q.after !== undefined) await requireCursorRow(db, bankAccounts, and(eq(bankAccounts.clientId, client.id), isNull(bankAccounts.removedAt)), q.after, 'Bank account');
  const [read, [total]] = await Promise.all([
    db
      .select({ account: bankAccounts, user: users })
      .from(bankAccounts)
      .innerJoin(users, eq(users.id, bankAccounts.userId))
      .where(q.after === undefined ? where : and(where, followingRow(bankAccounts, q.sort, q.after)))
      .orderBy(...order)
      .limit(q.limit + 1)
      .offset(q.after === undefined ? (q.page - 1) * q.limit : 0),
    db.select({ n: count() }).from(bankAccounts).where(where),
  ]);
  const { page: rows, nextAfter } = pageAndNext(read, q.limit, (r) => r.account.id);
  return {
    bank_accounts: rows.map((r) => ({
      ...bankAccountRecord(r.account),
      user: userRecord(r.user),
    })),
    pagination: pagination(q.page, q.limit, total?.n ?? 0, nextAfter, q.after !== undefined),
  };
}
