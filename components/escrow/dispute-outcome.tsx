import type { Dispute } from '@/lib/contracts/dashboard';
import { dateTime, naira } from './format';
import { settlementSplit, splitWords } from './money';

type Outcome = Pick<
  Dispute,
  'status' | 'resolution' | 'dispute_amount' | 'verdict_seller_amount' | 'verdict_reason' | 'resolved_at' | 'cancellation_agreement_details' | 'escalated_at' | 'escalated_by'
> & { milestone: Pick<Dispute['milestone'], 'amount' | 'milestone_fee' | 'commission_payer'> };
type Reader = 'buyer' | 'seller' | 'staff';

/** How the dispute ended, in words both parties read the same way (docs/decisions.md §6). */
export function outcomeOf(d: Outcome, viewer: Reader = 'staff'): { title: string; split: string; reason?: string | null } | null {
  switch (d.resolution) {
    case 'agreement':
      return { title: 'Settled by agreement', split: `${naira(d.dispute_amount)} was agreed for the seller. ${splitWords(settlementSplit(d.dispute_amount, d.milestone), viewer, 'did')}.` };
    case 'verdict':
      return {
        title: "Decided by the dispute team",
        split: `The dispute team awarded the seller ${naira(d.verdict_seller_amount ?? 0)}. ${splitWords(settlementSplit(d.verdict_seller_amount ?? 0, d.milestone), viewer, 'did')}.`,
        reason: d.verdict_reason,
      };
    case 'forfeit_buyer':
      return { title: 'The buyer forfeited', split: 'The buyer submitted no evidence before the window closed, so the escrow went to the seller.' };
    case 'forfeit_seller':
      return { title: 'The seller forfeited', split: 'The seller submitted no evidence before the window closed, so the escrow went back to the buyer.' };
    case 'canceled':
      return { title: 'Withdrawn by the seller', split: 'Everything held was refunded to the buyer.', reason: d.cancellation_agreement_details };
    case 'declined_refund':
      return { title: 'Refunded after declined arbitration', split: 'The dispute team did not decide in time, so everything held went back to the buyer.' };
    default:
      if (d.status === 'ARBITRATION_DECLINED') {
        return {
          title: 'Arbitration declined',
          split: 'Neither party submitted evidence before the window closed. The funds stay held until the deadline below: the dispute team may still decide, otherwise everything goes back to the buyer.',
        };
      }
      return null;
  }
}

export function DisputeOutcome({ dispute, viewer = 'staff' }: { dispute: Outcome; viewer?: Reader }) {
  const outcome = outcomeOf(dispute, viewer);
  if (!outcome) return null;
  return (
    <div role="status" data-testid="dispute-outcome" className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-emerald-950">
      <p className="font-semibold">{outcome.title}</p>
      <p className="mt-1 text-sm">{outcome.split}</p>
      {outcome.reason ? (
        <p className="mt-2 text-sm">
          <span className="font-medium">{dispute.resolution === 'canceled' ? 'Seller’s note: ' : 'Reason: '}</span>
          <span className="whitespace-pre-wrap">{outcome.reason}</span>
        </p>
      ) : null}
      {dispute.resolved_at ? <p className="mt-2 text-xs text-emerald-900">{dateTime(dispute.resolved_at)}</p> : null}
    </div>
  );
}
