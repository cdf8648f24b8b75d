import type { Metadata } from 'next';
import { OverviewFigures } from '@/components/admin/overview-figures';
import { buttonClasses } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { operatorEscrow } from '@/lib/server/escrow-client';
import { everyClient } from '@/lib/server/dashboard/operator';
import { requireOperator } from '@/lib/server/dashboard/actor';

export const metadata: Metadata = { title: 'Overview' };

/** Every client's figures together, or one client's (?client_id=, chosen with a plain GET form). */
export default async function OperatorOverviewPage({ searchParams }: { searchParams: Promise<{ client_id?: string | string[] }> }) {
  await requireOperator();
  const clients = await everyClient();
  const asked = (await searchParams).client_id;
  const known = clients.ok ? clients.data : [];
  const clientId = typeof asked === 'string' && known.some((c) => c.id === asked) ? asked : undefined;
  const overview = await operatorEscrow.call('GET /operator/reports/overview', { query: clientId ? { client_id: clientId } : {} });
  const clientPage = clientId ? `/operator/clients/${clientId}` : '/operator/clients';
  return (
    <>
      <PageHeader title="Overview" description="Money held and moved this month, and the disputes that need attention: every client, or one." />
      <form method="get" className="mb-6 flex flex-wrap items-end gap-3">
        <label className="flex min-w-0 flex-col gap-1 text-sm font-medium text-slate-800">
          Client
          <select name="client_id" defaultValue={clientId ?? ''} className="min-w-0 max-w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
            <option value="">Every client</option>
            {known.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClasses('secondary')}>
          Show
        </button>
      </form>
      {overview.ok ? (
        <OverviewFigures
          overview={overview.data}
          links={{ held: clientPage, released: clientPage, refunded: clientPage, fees: clientPage, openDisputes: '/dispute-team', lateDisputes: '/dispute-team' }}
        />
      ) : (
        <ErrorState title="The overview could not be loaded" message={overview.message} />
      )}
    </>
  );
}
