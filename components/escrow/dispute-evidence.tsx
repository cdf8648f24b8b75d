import type { Dispute } from '@/lib/contracts/dashboard';
import { Badge } from '../ui/badge';
import { dateTime } from './format';
import { ProofGallery } from './proof-gallery';

type Side = 'buyer' | 'seller';

/**
 * Both parties' evidence side by side, each submission with its text and files (images previewed through the
 * session-checked /proofs route, which serves a file only if this dispute's evidence holds it).
 */
export function DisputeEvidence({ dispute, names }: { dispute: Pick<Dispute, 'id' | 'evidence' | 'is_buyer_evidence_submitted' | 'is_seller_evidence_submitted'>; names?: Record<Side, string> }) {
  const sides: Side[] = ['buyer', 'seller'];
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {sides.map((side) => {
        const items = dispute.evidence.filter((e) => e.party === side).sort((a, b) => a.created_at.localeCompare(b.created_at));
        const submitted = side === 'buyer' ? dispute.is_buyer_evidence_submitted : dispute.is_seller_evidence_submitted;
        const title = side === 'buyer' ? 'Buyer' : 'Seller';
        return (
          <section key={side} aria-label={`${title}'s evidence`} data-testid={`evidence-${side}`} className="rounded-lg border bg-slate-50 p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-semibold text-slate-900">
                {title}&apos;s evidence{names ? <span className="font-normal text-slate-600"> · {names[side]}</span> : null}
              </h3>
              <Badge tone={submitted ? 'green' : 'grey'}>{submitted ? 'Submitted' : 'None yet'}</Badge>
            </div>
            {items.length === 0 ? <p className="mt-3 text-sm text-slate-600">Nothing submitted.</p> : null}
            <ol className="mt-3 space-y-4">
              {items.map((e) => (
                <li key={e.id} className="rounded-md border bg-white p-3">
                  <p className="whitespace-pre-wrap text-sm text-slate-900">{e.text}</p>
                  <ProofGallery
                    urls={e.files.map((f) => f.url)}
                    captions={e.files.map((f) => f.filename)}
                    label="Evidence file"
                    disputeId={dispute.id}
                  />
                  {e.files.length ? (
                    <ul className="mt-2 space-y-0.5 text-xs text-slate-500">
                      {e.files.map((f) => (
                        <li key={f.id} className="truncate" title={`sha256 ${f.sha256}`}>
                          {f.filename} · {Math.max(1, Math.round(f.size / 1024))} KB · sha256 {f.sha256.slice(0, 12)}…
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  <time dateTime={e.created_at} className="mt-2 block text-xs text-slate-500">
                    {dateTime(e.created_at)}
                  </time>
                </li>
              ))}
            </ol>
          </section>
        );
      })}
    </div>
  );
}
