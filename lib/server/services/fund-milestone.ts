import 'server-only';
import { fundingAmount, type CommissionPayer } from '@/lib/escrow/fees';
import { milestoneFunding } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import type { Db } from '../db/client';
import { AppError } from '../app-error';
import type { ClientRow } from '../db/schema';
import { runMilestoneAction } from '../engine/run-milestone-action';

/** `actedBy` client: the marketplace's staff funded for the buyer, and the log says so. */
export async function fundMilestone(db: Db, client: ClientRow, milestoneId: string, buyerId: string, now: Date, actedBy: 'buyer' | 'client' = 'buyer') {
  return runMilestoneAction(db, {
    client,
    milestoneId,
    action: 'fund',
    actingId: buyerId,
    now,
    moves: ['buyer_wallet', 'escrow'],
    apply: async ({ graph, entry, lockAccounts }) => {
      const m = entry.milestone;
      const amount = fundingAmount(m.amountKobo, m.feeKobo, m.commissionPayer as CommissionPayer);
      const walletId = graph.buyer.organisation.walletId;
      const transfer = milestoneFunding({ buyerWalletId: walletId, escrowId: entry.escrow.id, amount });
      // Locked here so a concurrent funding of another transaction from this wallet waits for this one.
      const balance = (await lockAccounts(transfer.postings.map((p) => p.accountId))).get(walletId) ?? 0;
      if (balance < amount) {
        throw new AppError(
          'INSUFFICIENT_FUNDS',
          `The buyer's wallet holds ${formatNaira(balance)}, but funding this milestone needs ${formatNaira(amount)}.`,
        );
      }
      return {
        milestone: { isMilestoneFunded: true },
        transfer: { transfer, description: `Funding of milestone ${m.position}` },
        log:
          actedBy === 'client'
            ? `The marketplace funded the milestone for the buyer: ${formatNaira(amount)} moved from the buyer's wallet into escrow.`
            : `Buyer funded the milestone: ${formatNaira(amount)} moved from the buyer's wallet into escrow.`,
        ...(actedBy === 'client' ? { actor: 'client' as const } : {}),
        fundedKobo: amount,
      };
    },
  });
}
