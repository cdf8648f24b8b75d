import 'server-only';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Transfer } from '@/lib/escrow/ledger';
import type { Tx } from '../db/client';
import { ledgerAccounts, ledgerEntries, ledgerTransfers } from '../db/schema';

/**
 * Writes a balanced transfer and moves the cached balances, inside the caller's database transaction.
 * Balances are updated in account-id order so two transfers touching the same accounts cannot deadlock.
 */
export async function postTransfer(
  tx: Tx,
  a: { clientId: string; transfer: Transfer; milestoneId?: string; description: string; now: Date },
): Promise<void> {
  if (a.transfer.postings.length === 0) return;
  const transferId = randomUUID();
  await tx.insert(ledgerTransfers).values({
    id: transferId,
    clientId: a.clientId,
    kind: a.transfer.kind,
    milestoneId: a.milestoneId ?? null,
    description: a.description,
    createdAt: a.now,
  });
  await tx.insert(ledgerEntries).values(
    a.transfer.postings.map((p) => ({ id: randomUUID(), transferId, accountId: p.accountId, amountKobo: p.amount, createdAt: a.now })),
  );
  const byAccount = [...a.transfer.postings].sort((x, y) => (x.accountId < y.accountId ? -1 : 1));
  for (const posting of byAccount) {
    await tx
      .update(ledgerAccounts)
      .set({ balanceKobo: sql`${ledgerAccounts.balanceKobo} + ${posting.amount}`, updatedAt: a.now })
      .where(sql`${ledgerAccounts.id} = ${posting.accountId}`);
  }
}

export async function createLedgerAccount(
  tx: Tx,
  a: { id: string; clientId: string; kind: 'wallet' | 'escrow' | 'platform_fees' | 'external'; now: Date },
): Promise<void> {
  await tx.insert(ledgerAccounts).values({ id: a.id, clientId: a.clientId, kind: a.kind, balanceKobo: 0, createdAt: a.now, updatedAt: a.now });
}
