import type { Dispute } from '@/lib/contracts/dashboard';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import { dateTime, naira } from './format';

type Entry = { key: string; who: 'buyer' | 'seller'; at: string; title: string; body?: string | null; badge?: { text: string; tone: 'amber' | 'green' | 'red' | 'grey' } };

type Party = 'buyer' | 'seller';

/** "You" for the viewer's own side, "Buyer"/"Seller" for the other (and for staff). */
function nameOf(party: Party, viewer: Party | 'staff'): string {
  return party === viewer ? 'You' : party === 'buyer' ? 'Buyer' : 'Seller';
}

/** The negotiation, oldest first: the opening, each proposal, and each answer to it, told to the viewer. */
export function DisputeThread({ dispute, viewer = 'staff' }: { dispute: Dispute; viewer?: Party | 'staff' }) {
  const openedBy = dispute.opened_by === 'system' ? null : dispute.opened_by;
  const opened = openedBy ? `${nameOf(openedBy, viewer)} opened the dispute` : 'The service opened the dispute: nobody did in time';
  const entries: Entry[] = [{ key: 'opened', who: dispute.opened_by === 'buyer' ? 'buyer' : 'seller', at: dispute.created_at, title: opened, body: dispute.description }];
  const mediating = dispute.status === 'INTRA_PARTY_MEDIATION';
  for (const p of [...dispute.proposals].sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    // A proposal is answered by the other side: the buyer answers the seller's, the seller the buyer's counter-offer.
    const by = p.proposed_by;
    const answerer: Party = by === 'seller' ? 'buyer' : 'seller';
    const badge =
      p.status === 'SUBMITTED'
        ? mediating
          ? answerer === viewer
            ? ({ text: 'Your answer is awaited', tone: 'amber' } as const)
            : ({ text: `Awaiting the ${answerer}`, tone: 'amber' } as const)
          : ({ text: 'Not answered before mediation ended', tone: 'grey' } as const)
        : p.status === 'SUPERSEDED'
          ? ({ text: 'Revised', tone: 'grey' } as const)
          : p.status === 'APPROVED'
            ? ({ text: 'Accepted', tone: 'green' } as const)
            : ({ text: 'Rejected', tone: 'red' } as const);
    const title = by === 'seller' ? `${nameOf('seller', viewer)} proposed ${naira(p.amount)}` : `${nameOf('buyer', viewer)} offered ${naira(p.amount)}`;
    entries.push({ key: p.id, who: by, at: p.created_at, title, badge });
    if (p.decided_at && (p.status === 'REJECTED' || p.rejection_reason !== null)) {
      // A seller's proposal is rejected by the buyer, or answered by the buyer's counter-offer.
      entries.push({ key: `${p.id}-r`, who: answerer, at: p.decided_at, title: `${nameOf(answerer, viewer)} rejected ${naira(p.amount)}`, body: p.rejection_reason });
    }
    if (p.status === 'APPROVED' && p.decided_at) {
      entries.push({ key: `${p.id}-a`, who: answerer, at: p.decided_at, title: `${nameOf(answerer, viewer)} ${answerer === 'buyer' ? 'approved' : 'accepted'} ${naira(p.amount)}: the dispute is settled` });
    }
  }
  return (
    <ol className="space-y-3" aria-label="Negotiation">
      {entries.map((e) => (
        <li key={e.key} className={cn('flex', e.who === 'buyer' ? 'justify-end' : 'justify-start')} data-testid="thread-entry">
          <div className={cn('max-w-[85%] rounded-lg border px-4 py-3 shadow-sm', e.who === 'buyer' ? 'border-sky-200 bg-sky-50' : 'border-violet-200 bg-violet-50')}>
            <div className="flex flex-wrap items-center gap-2">
              <p className="font-medium text-slate-900">{e.title}</p>
              {e.badge ? <Badge tone={e.badge.tone}>{e.badge.text}</Badge> : null}
            </div>
            {e.body ? <p className="mt-1 text-sm text-slate-800">{e.body}</p> : null}
            <time dateTime={e.at} className="mt-1 block text-xs text-slate-600">
              {dateTime(e.at)}
            </time>
          </div>
        </li>
      ))}
    </ol>
  );
}
