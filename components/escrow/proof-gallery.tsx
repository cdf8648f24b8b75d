'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { fileIdOfProof, type ProofTokens } from '@/lib/contracts/dashboard-plain';

const SignedLinks = createContext<ProofTokens>({});

/**
 * The page's signed links to the proof files it shows (lib/server/dashboard/proof-links.ts): a thumbnail inside links
 * its file with one, so /proofs reads only the file; a file without one is checked against its milestone or dispute.
 */
export function ProofLinks({ tokens, children }: { tokens: ProofTokens; children: ReactNode }) {
  return <SignedLinks.Provider value={tokens}>{children}</SignedLinks.Provider>;
}

type Scope = { milestoneId: string; disputeId?: undefined } | { disputeId: string; milestoneId?: undefined };

function Proof({ url, scope, index, label, caption }: { url: string; scope: Scope; index: number; label: string; caption?: string }) {
  const fileId = fileIdOfProof(url);
  const [notImage, setNotImage] = useState(false);
  const token = useContext(SignedLinks)[fileId ?? ''];
  // Stored files go through the dashboard's session-checked proxy; outside URLs are only linked.
  const check = token ? `t=${encodeURIComponent(token)}` : scope.disputeId ? `dispute=${scope.disputeId}` : `milestone=${scope.milestoneId}`;
  const href = fileId ? `/proofs/${fileId}?${check}` : url;
  const name = caption ?? `${label} ${index + 1}`;
  if (!fileId || notImage) {
    return (
      <li>
        <a href={href} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 rounded border bg-white px-3 py-2 text-sm text-emerald-800 underline underline-offset-2">
          Open {caption ?? name.toLowerCase()}
        </a>
      </li>
    );
  }
  return (
    <li>
      <a href={href} target="_blank" rel="noopener noreferrer" className="block overflow-hidden rounded border bg-white focus-visible:outline-2 focus-visible:outline-emerald-700">
        {/* eslint-disable-next-line @next/next/no-img-element -- a private, session-checked file: next/image would cache it publicly */}
        <img src={href} alt={name} onError={() => setNotImage(true)} className="h-28 w-28 object-cover" />
      </a>
    </li>
  );
}

export function ProofGallery({
  title,
  urls,
  label,
  captions,
  ...scope
}: { title?: string; urls: string[]; label: string; captions?: string[] } & Scope) {
  if (urls.length === 0) return null;
  return (
    <div>
      {title ? <h4 className="text-sm font-medium text-slate-800">{title}</h4> : null}
      <ul className="mt-2 flex flex-wrap gap-2">
        {urls.map((url, i) => (
          <Proof key={`${url}-${i}`} url={url} scope={scope} index={i} label={label} caption={captions?.[i]} />
        ))}
      </ul>
    </div>
  );
}
