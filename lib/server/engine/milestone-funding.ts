import 'server-only';
import { fundingAmount, type CommissionPayer } from '@/lib/escrow/fees';
import { milestoneFunding } from '@/lib/escrow/ledger';
import { formatNaira } from '@/lib/escrow/money';
import { AppError } from '../app-error';
import type { ActionContext, MilestoneActionEffect } from './milestone-action';

/**
 * The funding of a milestone from the buyer's wallet, as `POST /v1/milestones/{id}/fund` applies it and a paid
 * checkout does (docs/decisions.md §16). `actedBy` client: the marketplace's staff funded for the buyer; `checkout`:
 * the buyer's card payment did, and the log says so.
 */
export function fundFromWallet(actedBy: 'buyer' | 'client' | 'checkout') {
  return async ({ graph, entry, lockAccounts }: ActionContext): Promise<MilestoneActionEffect> => {
    const m = entry.milestone;
    const amount = fundingAmount(m.amountKobo, m.feeKobo, m.commissionPayer as CommissionPayer);
    const walletId = graph.buyer.organisation.walletId;
    const transfer = milestoneFunding({ buyerWalletId: walletId, escrowId: entry.escrow.id, amount });
    // Locked here so a concurrent funding of another transaction from this wallet waits for this one.
    const balance = (await lockAccounts(transfer.postings.map((p) => p.accountId))).get(walletId) ?? 0;
    if (balance < amount) {
      throw new AppError('INSUFFICIENT_FUNDS', `The buyer's wallet holds ${formatNaira(balance)}, but funding this milestone needs ${formatNaira(amount)}.`);
    }
    const log = {
      buyer: `Buyer funded the milestone: ${formatNaira(amount)} moved from the buyer's wallet into escrow.`,
      client: `The marketplace funded the milestone for the buyer: ${formatNaira(amount)} moved from the buyer's wallet into escrow.`,
      checkout: `Buyer funded the milestone by card: ${formatNaira(amount)} moved from the buyer's wallet into escrow.`,
    }[actedBy];
    return {
      milestone: { isMilestoneFunded: true },
      transfer: { transfer, description: `Funding of milestone ${m.position}` },
      log,
      ...(actedBy === 'client' ? { actor: 'client' as const } : {}),
      fundedKobo: amount,
    };
  };
}
