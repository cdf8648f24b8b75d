import type { ReactNode } from 'react';
import { Card, CardHeader } from '../ui/card';

/** A record's integration fields (docs/decisions.md §19), read-only: the integrator's own ids and metadata, shown as stored. */
export function IntegrationDetails({ facts = [], metadata, testId }: { facts?: Array<[string, ReactNode]>; metadata: Record<string, string>; testId?: string }) {
  const pairs = Object.entries(metadata);
  return (
    <Card data-testid={testId ?? 'integration-details'}>
      <CardHeader title="Integration details" description="Set by your integration through the API; shown as stored." level={2} />
      <MetadataList facts={facts} pairs={pairs} />
    </Card>
  );
}

/** The same, inside a list item: a small heading, and nothing at all when the record has no metadata. */
export function InlineIntegrationDetails({ metadata }: { metadata: Record<string, string> }) {
  const pairs = Object.entries(metadata);
  if (pairs.length === 0) return null;
  return (
    <div className="mt-2 rounded border border-slate-200 bg-slate-50 p-2" data-testid="integration-details">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">Integration details</h3>
      <MetadataList facts={[]} pairs={pairs} />
    </div>
  );
}

function MetadataList({ facts, pairs }: { facts: Array<[string, ReactNode]>; pairs: Array<[string, string]> }) {
  return (
    <dl className="space-y-2 text-sm">
      {facts.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-slate-500">{label}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
      <div className="min-w-0">
        <dt className="text-slate-500">Metadata</dt>
        <dd>
          {pairs.length === 0 ? (
            <span className="text-slate-600">None</span>
          ) : (
            <ul className="mt-1 space-y-1" aria-label="Metadata">
              {pairs.map(([key, value]) => (
                <li key={key} className="min-w-0 break-words" data-testid="metadata-pair">
                  <span className="font-mono text-xs text-slate-700">{key}</span>
                  <span className="text-slate-500">: </span>
                  <span className="break-words">{value}</span>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
    </dl>
  );
}
