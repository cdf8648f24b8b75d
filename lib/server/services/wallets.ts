import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import { pagination } from '@/lib/contracts/common';
import type { WalletHistoryQuery, WalletInclude } from '@/lib/contracts/wallets';
import { walletFunding } from '@/lib/escrow/ledger';
import { formatNaira, koboToNaira, parseNaira } from '@/lib/escrow/money';
import type { Db, DbOrTx } from '../db/client';
import { keptTotal } from '../db/list-counts';
import { checkPageRequest, followingRow, pageAndNext, requireCursorRow } from '../db/paged-list';
import { ledgerAccounts, ledgerEntries, ledgerTransfers, milestones, transactions } from '../db/schema';
import { recordEvent } from '../events/record-event';
import { AppError, notFound } from '../app-error';
import type { ClientRow } from '../db/schema';
import { iso } from '../records/iso';
import { findUser, loadWallet, walletRecord } from '../records/people';
import { postTransfer } from '../engine/post-transfer';
import { listPayouts } from '../payouts/payouts';
import { listBankAccounts } from './bank-accounts';
import { getUser } from './users';

/** The wallet of the user named by user id or party id, with that user's id. */
async function walletOf(db: DbOrTx, clientId: string, userOrPartyId: string) {
  const user = await findUser(db, clientId, userOrPartyId);
  const found = await loadWallet(db, user.id);
  if (!found) throw notFound('Wallet of user', user.id);
  return { ...found, userId: user.id };
}

export async function getWallet(db: Db, client: ClientRow, userOrPartyId: string) {
  const { wallet, balanceKobo, userId } = await walletOf(db, client.id, userOrPartyId);
  return { ...walletRecord(wallet, balanceKobo), user_id: userId };
}

/** The wallet with what `include` asks for, each read as its own operation reads its first page, side by side. */
export async function getWalletWith(db: Db, client: ClientRow, userOrPartyId: string, include: ReadonlySet<WalletInclude>) {
  const wallet = await getWallet(db, client, userOrPartyId);
  const firstPage = { page: 1, limit: 20 } as const;
  const user_id = wallet.user_id;
  const [history, payouts, bank_accounts, user] = await Promise.all([
    include.has('history') ? walletHistory(db, client, user_id, firstPage) : undefined,
    include.has('payouts') ? listPayouts(db, client, { ...firstPage, user_id }) : undefined,
    include.has('bank_accounts') ? listBankAccounts(db, client, { ...firstPage, user_id, sort: 'DESC' }) : undefined,
    include.has('user') ? getUser(db, client, user_id) : undefined,
  ]);
  return { ...wallet, ...(history && { history }), ...(payouts && { payouts }), ...(bank_accounts && { bank_accounts }), ...(user && { user }) };
}

/** Sandbox money in (docs/decisions.md §5): test keys only; live money comes from a payment provider. */
export async function fundWallet(db: Db, client: ClientRow, body: { user_id: string; amount: number }, now: Date) {
  if (client.mode !== 'test') {
    throw new AppError('LIVE_MODE_FORBIDDEN', 'Sandbox funding works only with test keys; live wallets are funded through the payment provider.');
  }
  const parsed = parseNaira(body.amount);
  if (!parsed.ok) throw new AppError('VALIDATION_ERROR', `amount ${parsed.reason}`);
  return db.transaction(async (tx) => {
    const { wallet, userId } = await walletOf(tx, client.id, body.user_id);
    await postTransfer(tx, {
      clientId: client.id,
      transfer: walletFunding({ externalAccountId: client.externalAccountId, walletId: wallet.id, amount: parsed.kobo }),
      description: `Sandbox funding of ${formatNaira(parsed.kobo)}`,
      now,
    });
    const [account] = await tx.select({ balance: ledgerAccounts.balanceKobo }).from(ledgerAccounts).where(eq(ledgerAccounts.id, wallet.id));
    const record = { ...walletRecord(wallet, account?.balance ?? 0), user_id: userId };
    await recordEvent(tx, { clientId: client.id, type: 'wallet.funded', data: { actor: 'client', automatic: false, amount: body.amount, wallet: record }, now });
    return record;
  });
}

/** The wallet's side of every transfer that touched it, newest first; by `page` or after a cursor entry of this wallet. */
export async function walletHistory(db: Db, client: ClientRow, userOrPartyId: string, q: WalletHistoryQuery) {
  checkPageRequest(q);
  const { wallet } = await walletOf(db, client.id, userOrPartyId);
  const where = eq(ledgerEntries.accountId, wallet.id);
  if (q.after !== undefined) await requireCursorRow(db, ledgerEntries, where, q.after, 'Wallet history entry');
  const [rows, total] = await Promise.all([
    db
      .select({
        entry: ledgerEntries,
        transfer: ledgerTransfers,
        milestoneTitle: milestones.title,
        transactionId: transactions.id,
        transactionTitle: transactions.title,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
      // The deal a line belongs to, in the same query: a history page names each line's deal (issue #27).
      .leftJoin(milestones, and(eq(milestones.id, ledgerTransfers.milestoneId), eq(milestones.clientId, client.id)))
      .leftJoin(transactions, eq(transactions.id, milestones.transactionId))
      .where(and(where, eq(ledgerTransfers.clientId, client.id), q.after === undefined ? undefined : followingRow(ledgerEntries, 'DESC', q.after)))
      .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
      .limit(q.limit + 1)
      .offset(q.after === undefined ? (q.page - 1) * q.limit : 0),
    keptTotal(db, { list: 'wallet_entries', scope: wallet.id }),
  ]);
  const { page, nextAfter } = pageAndNext(rows, q.limit, (r) => r.entry.id);
  return {
    entries: page.map(({ entry, transfer, milestoneTitle, transactionId, transactionTitle }) => ({
      id: entry.id,
      transfer_id: transfer.id,
      kind: transfer.kind,
      description: transfer.description,
      amount: koboToNaira(entry.amountKobo),
      milestone_id: transfer.milestoneId,
      milestone_title: milestoneTitle,
      transaction_id: transactionId,
      transaction_title: transactionTitle,
      created_at: iso(entry.createdAt),
    })),
    pagination: pagination(q.page, q.limit, total, nextAfter, q.after !== undefined),
  };
}
