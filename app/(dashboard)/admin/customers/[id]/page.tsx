import type { Metadata } from 'next';
import Link from 'next/link';
import { CustomerDetail } from '@/components/admin/customer-detail';
import { buttonClasses } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { requireAdmin } from '@/lib/server/dashboard/actor';
import { customerPage } from '@/lib/server/dashboard/customer-page';

export const metadata: Metadata = { title: 'Customer' };

export default async function CustomerPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireAdmin();
  const { id } = await params;
  const page = await customerPage(actor, id);
  if (!page.ok) return <ErrorState message={page.message} />;
  const { user, ...view } = page.view;
  return (
    <>
      <p className="mb-1 text-sm text-slate-600">
        <Link href="/admin/customers" className="underline underline-offset-2">
          Customers
        </Link>{' '}
        / {user.first_name} {user.last_name}
      </p>
      <PageHeader
        title={`${user.first_name} ${user.last_name}`}
        description={user.email}
        actions={
          <Link href={`/admin/customers/${id}/statement`} className={buttonClasses('secondary', 'md')}>
            Monthly statement
          </Link>
        }
      />
      <CustomerDetail user={user} {...view} />
    </>
  );
}
