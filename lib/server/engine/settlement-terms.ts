import 'server-only';
import type { CommissionPayer } from '@/lib/escrow/fees';
import type { SettlementTerms } from '@/lib/escrow/ledger';
import type { MilestoneWithEscrow } from '../records/transaction-graph/queries';

export function settlementTerms(entry: MilestoneWithEscrow): SettlementTerms {
  return {
    milestoneAmount: entry.milestone.amountKobo,
    milestoneFee: entry.milestone.feeKobo,
    commissionPayer: entry.milestone.commissionPayer as CommissionPayer,
    escrowBalance: entry.escrow.balanceKobo,
  };
}
