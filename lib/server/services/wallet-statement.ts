import 'server-only';
import type { StatementQuery, StatementRecord } from '@/lib/contracts/wallets';
import { koboToNaira, nairaText } from '@/lib/escrow/money';
import { buildStatement, statementBound, statementPeriod } from '@/lib/escrow/statements';
import { AppError, notFound } from '../app-error';
import type { Db } from '../db/client';
import type { ClientRow } from '../db/schema';
import { csvCell, csvLine } from '../http/csv';
import { findUser, loadWallet, userRecord } from '../records/people';
import { iso } from '../records/iso';
import { walletBalanceBefore, walletLines } from '../records/wallet-lines';

/** GET /v1/wallets/{user_id}/statement (docs/decisions.md §18): the period's lines from the balance before it. */
export async function walletStatement(db: Db, client: ClientRow, userOrPartyId: string, q: StatementQuery, now: Date): Promise<StatementRecord> {
  const { from, to } = statementPeriod(now, q.from ? statementBound(q.from, 'from') : undefined, q.to ? statementBound(q.to, 'to') : undefined);
  if (from > to) {
    throw new AppError('VALIDATION_ERROR', `from (${iso(from)}) is after to (${iso(to)}): a statement's period must not end before it starts.`, [
      { field: 'from', message: 'must not be after to' },
    ]);
  }
  const owner = await findUser(db, client.id, userOrPartyId);
  const userId = owner.id;
  const found = await loadWallet(db, userId);
  if (!found) throw notFound('Wallet of user', userId);
  const walletId = found.wallet.id;
  const [opening, entries] = await Promise.all([
    walletBalanceBefore(db, walletId, from),
    walletLines(db, { clientId: client.id, userId, walletId }, { from, to }),
  ]);
  const statement = buildStatement(opening, entries);
  return {
    user_id: userId,
    user: userRecord(owner),
    wallet_id: walletId,
    currency: 'NGN',
    from: iso(from),
    to: iso(to),
    opening_balance: koboToNaira(statement.openingBalance),
    closing_balance: koboToNaira(statement.closingBalance),
    total_in: koboToNaira(statement.totalIn),
    total_out: koboToNaira(statement.totalOut),
    lines: statement.lines.map((line) => ({
      at: iso(line.at),
      kind: line.kind,
      amount: koboToNaira(line.amount),
      balance_after: koboToNaira(line.balanceAfter),
      description: line.description,
      transaction_id: line.transactionId,
      milestone_id: line.milestoneId,
      payout_id: line.payoutId,
      checkout_id: line.checkoutId,
    })),
  };
}

export const STATEMENT_CSV_HEADER = ['at', 'kind', 'amount', 'balance_after', 'description', 'transaction_id', 'milestone_id', 'payout_id', 'checkout_id'];

/** The statement's lines as CSV: a header row, then one row per line, amounts as naira with two decimals. */
export function statementCsv(statement: StatementRecord): string {
  // Amounts are written as they are: their leading minus is a number's, not a formula for csvCell to defuse.
  const amount = (naira: number) => nairaText(Math.round(naira * 100));
  const rows = statement.lines.map(
    (l) => `${[csvCell(l.at), csvCell(l.kind), amount(l.amount), amount(l.balance_after), ...[l.description, l.transaction_id, l.milestone_id, l.payout_id, l.checkout_id].map(csvCell)].join(',')}\r\n`,
  );
  return csvLine(STATEMENT_CSV_HEADER) + rows.join('');
}
