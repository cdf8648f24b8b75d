import 'server-only';
import { eq } from 'drizzle-orm';
import { fundingAmount, type CommissionPayer } from '@/lib/escrow/fees';
import { milestoneFunding } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { ledgerAccounts, milestones } from '../db/schema';
import { AppError } from '../http/app-error';
import type { ClientRow } from '../http/auth';
import { runMilestoneAction } from './milestone-action';
import { postTransfer } from './post-transfer';

export async function fundMilestone(db: Db, client: ClientRow, milestoneId: string, buyerId: string, now: Date) {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'fund',
    actingId: buyerId,
    now,
    apply: async ({ tx, graph, entry, to }) => {
      const m = entry.milestone;
      const amount = fundingAmount(m.amountKobo, m.feeKobo, m.commissionPayer as CommissionPayer);
      const walletId = graph.buyer.organisation.walletId;
      // Locked here so a concurrent funding of another transaction from this wallet waits for this one.
      const [wallet] = await tx.select({ balance: ledgerAccounts.balanceKobo }).from(ledgerAccounts).where(eq(ledgerAccounts.id, walletId)).for('update');
      const balance = wallet?.balance ?? 0;
      if (balance < amount) {
        throw new AppError(
          'INSUFFICIENT_FUNDS',
          `The buyer's wallet holds ${formatNaira(balance)}, but funding this milestone needs ${formatNaira(amount)}.`,
        );
      }
      await postTransfer(tx, {
        clientId: client.id,
        transfer: milestoneFunding({ buyerWalletId: walletId, escrowId: entry.escrow.id, amount }),
        milestoneId,
        description: `Funding of milestone ${m.position}`,
        now,
      });
      await tx.update(milestones).set({ status: to, isMilestoneFunded: true, updatedAt: now }).where(eq(milestones.id, milestoneId));
      return { log: `Buyer funded the milestone: ${formatNaira(amount)} moved from the buyer's wallet into escrow.`, fundedKobo: amount };
    },
  });
}
