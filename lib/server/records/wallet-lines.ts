import 'server-only';
import { and, asc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { TransferKind } from '@/lib/escrow/ledger';
import { statementLineKind, type StatementEntry } from '@/lib/escrow/statements';
import type { DbOrTx } from '../db/client';
import { ledgerEntries, ledgerTransfers, milestones, parties, transactions } from '../db/schema';

export type WalletOwner = { clientId: string; userId: string; walletId: string };

/**
 * A wallet's ledger entries as statement lines, oldest first, within [from, to) or up to `through`
 * (included). A release or settlement is the wallet's release when its user is the seller of the
 * milestone's deal, and escrow money back otherwise: a user can be buyer in one deal and seller in another
 * (docs/decisions.md §18).
 */
export async function walletLines(db: DbOrTx, owner: WalletOwner, window: { from?: Date; to?: Date; through?: Date }): Promise<StatementEntry[]> {
  const rows = await db
    .select({
      at: ledgerEntries.createdAt,
      amount: ledgerEntries.amountKobo,
      kind: ledgerTransfers.kind,
      description: ledgerTransfers.description,
      milestoneId: ledgerTransfers.milestoneId,
      payoutId: ledgerTransfers.payoutId,
      checkoutId: ledgerTransfers.checkoutId,
      transactionId: transactions.id,
      sellerUserId: parties.userId,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
    .leftJoin(milestones, and(eq(milestones.id, ledgerTransfers.milestoneId), eq(milestones.clientId, owner.clientId)))
    .leftJoin(transactions, eq(transactions.id, milestones.transactionId))
    .leftJoin(parties, eq(parties.id, transactions.sellerPartyId))
    .where(
      and(
        eq(ledgerEntries.accountId, owner.walletId),
        eq(ledgerTransfers.clientId, owner.clientId),
        window.from ? gte(ledgerEntries.createdAt, window.from) : undefined,
        window.to ? lt(ledgerEntries.createdAt, window.to) : undefined,
        window.through ? lte(ledgerEntries.createdAt, window.through) : undefined,
      ),
    )
    .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id));
  return rows.flatMap((row) => {
    const kind = statementLineKind(row.kind as TransferKind, row.sellerUserId === owner.userId ? 'seller' : 'buyer');
    if (!kind) return [];
    return [
      {
        at: row.at,
        kind,
        amount: row.amount,
        description: row.description,
        transactionId: row.transactionId,
        milestoneId: row.milestoneId,
        payoutId: row.payoutId,
        checkoutId: row.checkoutId,
      },
    ];
  });
}

/** What the wallet held just before `at`: the sum of its entries before then. */
export async function walletBalanceBefore(db: DbOrTx, walletId: string, at: Date): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${ledgerEntries.amountKobo}), 0)::text` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.accountId, walletId), lt(ledgerEntries.createdAt, at)));
  return Number(row?.sum ?? 0);
}
