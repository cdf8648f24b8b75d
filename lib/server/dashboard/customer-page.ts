import 'server-only';
import { notFound } from 'next/navigation';
import type { BankAccountList, TransactionList, User, WalletView } from '@/lib/contracts/dashboard';
import type { PayoutsView } from '@/lib/contracts/dashboard-payouts';
import type { CheckoutsView } from '@/lib/contracts/dashboard-statements';
import { USER_INCLUDES } from '@/lib/contracts/user-related';
import { getDb } from '../db/client';
import { escrowFor, type ApiFailure } from '../escrow-client';
import { accountsForUsers } from './accounts';
import type { ClientActor } from './actor';

export type CustomerPageView = {
  user: User;
  access: 'active' | 'invited' | 'none';
  wallet: WalletView;
  payouts: PayoutsView;
  checkouts: CheckoutsView;
  bankAccounts: BankAccountList['bank_accounts'];
  transactions: TransactionList['transactions'];
};

/**
 * Everything an admin's customer page shows, read in one request (the user with its related records, issue #60);
 * whether the customer signs in to the dashboard is the dashboard's own table. An unknown id is the page's 404.
 */
export async function customerPage(actor: ClientActor, userId: string): Promise<{ ok: true; view: CustomerPageView } | ApiFailure> {
  const [found, accounts] = await Promise.all([
    escrowFor(actor).call('GET /users/:id', { param: { id: userId }, query: { include: USER_INCLUDES.join(',') } }),
    getDb().then((db) => accountsForUsers(db, actor.clientId, [userId])),
  ]);
  if (!found.ok && (found.status === 404 || found.status === 400)) notFound();
  if (!found.ok) return found;
  const { wallet, wallet_history, bank_accounts, payouts, checkouts, transactions, ...user } = found.data;
  if (!wallet || !wallet_history || !bank_accounts || !payouts || !checkouts || !transactions) throw new Error('GET /users/{id} left out an include');
  const name = `${user.first_name} ${user.last_name}`;
  const account = accounts.find((a) => a.escrowUserId === user.id);
  return {
    ok: true,
    view: {
      user,
      access: !account ? 'none' : account.passwordHash ? 'active' : 'invited',
      wallet: { wallet, history: wallet_history },
      payouts: { payouts: payouts.payouts.map((p) => ({ ...p, customer: name })), pagination: payouts.pagination },
      checkouts,
      bankAccounts: bank_accounts.bank_accounts,
      transactions: transactions.transactions,
    },
  };
}
