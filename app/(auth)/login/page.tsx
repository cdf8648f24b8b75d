import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { Card } from '@/components/ui/card';
import { sameOriginPath } from '@/lib/contracts/redirect-target';
import { currentActor } from '@/lib/server/dashboard/actor';

export const metadata: Metadata = { title: 'Sign in' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string; invited?: string; expired?: string }> }) {
  if (await currentActor()) redirect('/dashboard');
  const { next, invited, expired } = await searchParams;
  const target = sameOriginPath(next);
  return (
    <Card>
      <h1 className="text-xl font-semibold">Sign in</h1>
      <p className="mt-1 text-sm text-slate-600">Buyers, sellers and marketplace admins sign in here.</p>
      {invited ? (
        <p role="status" className="mt-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Your password is set. Sign in with it now.
        </p>
      ) : null}
      {expired && next ? (
        <p role="status" className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950">
          Your session has ended. Sign in again and you will be back on the page you were on.
        </p>
      ) : null}
      <SignInForm next={target} />
    </Card>
  );
}
