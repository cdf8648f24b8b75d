import 'server-only';

type Labelled = { metadata: Record<string, string>; external_reference?: string | null; milestones?: Array<{ metadata: Record<string, string> }> };

/**
 * The integrator's own labels are for its staff (docs/api.md, "Metadata"): a customer's page gets the record without them,
 * so they are not in what its browser receives either.
 */
export function withoutIntegrationFields<R extends Labelled>(record: R): R {
  return {
    ...record,
    metadata: {},
    ...(record.external_reference === undefined ? {} : { external_reference: null }),
    ...(record.milestones ? { milestones: record.milestones.map((m) => ({ ...m, metadata: {} })) } : {}),
  } as R;
}
