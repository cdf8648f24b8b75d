import { Badge } from '../ui/badge';
import { CHECKOUT_STATUS, DISPUTE_STATUS, labelOf, MILESTONE_STATUS, PAYOUT_STATUS, TRANSACTION_STATUS } from './status-labels';

const MAPS = { milestone: MILESTONE_STATUS, transaction: TRANSACTION_STATUS, dispute: DISPUTE_STATUS, payout: PAYOUT_STATUS, checkout: CHECKOUT_STATUS };

export function StatusBadge({ kind, status }: { kind: keyof typeof MAPS; status: string }) {
  const { label, tone } = labelOf(MAPS[kind], status);
  return (
    <Badge tone={tone}>
      <span data-status={status}>{label}</span>
    </Badge>
  );
}
