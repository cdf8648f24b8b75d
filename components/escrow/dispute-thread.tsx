import type { Dispute } from '@/lib/contracts/dashboard';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import { dateTime, naira } from './money';

type Entry = { key: string; who: 'buyer' | 'seller'; at: string; title: string; body?: string | null; badge?: { text: string; tone: 'amber' | 'green' | 'red' | 'grey' } };

/** The negotiation, oldest first: the opening, each proposal, and each answer to it. */
export function DisputeThread({ dispute }: { dispute: Dispute }) {
  const opened = { buyer: 'Buyer opened the dispute', seller: 'Seller opened the dispute', system: 'The service opened the dispute: nobody did in time' }[dispute.opened_by];
  const entries: Entry[] = [{ key: 'opened', who: dispute.opened_by === 'buyer' ? 'buyer' : 'seller', at: dispute.created_at, title: opened, body: dispute.description }];
  for (const p of [...dispute.proposals].sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    // A proposal is answered by the other side: the buyer answers the seller's, the seller the buyer's counter-offer.
    const by = p.proposed_by;
    const answerer = by === 'seller' ? 'buyer' : 'seller';
    const Answerer = answerer === 'buyer' ? 'Buyer' : 'Seller';
    const badge =
      p.status === 'SUBMITTED'
        ? ({ text: `Awaiting the ${answerer}`, tone: 'amber' } as const)
        : p.status === 'SUPERSEDED'
          ? ({ text: 'Revised', tone: 'grey' } as const)
          : p.status === 'APPROVED'
            ? ({ text: 'Accepted', tone: 'green' } as const)
            : ({ text: 'Rejected', tone: 'red' } as const);
    const title = by === 'seller' ? `Seller proposed ${naira(p.amount)}` : `Buyer offered ${naira(p.amount)}`;
    entries.push({ key: p.id, who: by, at: p.created_at, title, badge });
    if (p.decided_at && (p.status === 'REJECTED' || p.rejection_reason !== null)) {
      // A seller's proposal is rejected by the buyer, or answered by the buyer's counter-offer.
      entries.push({ key: `${p.id}-r`, who: answerer, at: p.decided_at, title: `${Answerer} rejected ${naira(p.amount)}`, body: p.rejection_reason });
    }
    if (p.status === 'APPROVED' && p.decided_at) {
      entries.push({ key: `${p.id}-a`, who: answerer, at: p.decided_at, title: `${Answerer} ${answerer === 'buyer' ? 'approved' : 'accepted'} ${naira(p.amount)}: the dispute is settled` });
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
