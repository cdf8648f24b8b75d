'use client';

import { useState } from 'react';
import { fileIdOfProof } from '@/lib/contracts/dashboard';

function Proof({ url, milestoneId, index, label }: { url: string; milestoneId: string; index: number; label: string }) {
  const fileId = fileIdOfProof(url);
  const [notImage, setNotImage] = useState(false);
  // Stored files go through the dashboard's session-checked proxy; outside URLs are only linked.
  const href = fileId ? `/proofs/${fileId}?milestone=${milestoneId}` : url;
  const name = `${label} ${index + 1}`;
  if (!fileId || notImage) {
    return (
      <li>
        <a href={href} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 rounded border bg-white px-3 py-2 text-sm text-emerald-800 underline underline-offset-2">
          Open {name.toLowerCase()}
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

export function ProofGallery({ title, urls, milestoneId, label }: { title: string; urls: string[]; milestoneId: string; label: string }) {
  if (urls.length === 0) return null;
  return (
    <div>
      <h4 className="text-sm font-medium text-slate-800">{title}</h4>
      <ul className="mt-2 flex flex-wrap gap-2">
        {urls.map((url, i) => (
          <Proof key={`${url}-${i}`} url={url} milestoneId={milestoneId} index={i} label={label} />
        ))}
      </ul>
    </div>
  );
}
