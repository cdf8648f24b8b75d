import type { Metadata } from 'next';
import { AcceptInviteForm } from '@/components/auth/accept-invite-form';
import { Card } from '@/components/ui/card';
import { getDb } from '@/lib/server/db/client';
import { findUsableInvite } from '@/lib/server/dashboard/accounts';

export const metadata: Metadata = { title: 'Set your password', referrer: 'no-referrer' };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = /^[A-Za-z0-9_-]{20,100}$/.test(token) ? await findUsableInvite(await getDb(), token, new Date()) : undefined;
  return (
    <Card>
      <h1 className="text-xl font-semibold">Set your password</h1>
      {found ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Welcome, {found.account.name}. Choose a password for <strong>{found.account.email}</strong>.
          </p>
          <AcceptInviteForm token={token} />
        </>
      ) : (
        <p role="alert" className="mt-3 text-sm text-rose-800">
          This invite link has expired or was already used. Ask your marketplace for a new one.
        </p>
      )}
    </Card>
  );
}
