import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { CheckoutAnswer } from '@/components/checkout/checkout-answer';
import { Card } from '@/components/ui/card';
import { getDb } from '@/lib/server/db/client';
import { checkoutPageView } from '@/lib/server/checkouts/page';

export const metadata: Metadata = { title: 'Pay', robots: { index: false } };
export const dynamic = 'force-dynamic';

const OUTCOME: Record<'PAID' | 'FAILED' | 'EXPIRED', string> = {
  PAID: 'This payment is complete.',
  FAILED: 'This payment was declined.',
  EXPIRED: 'This payment page has expired.',
};

/**
 * The payment page a checkout's authorization_url opens (docs/decisions.md §16): public, found by its unguessable
 * reference. In the sandbox it offers Pay and Decline; a buyer back from Paystack sees the outcome, or goes on to
 * callback_url.
 */
export default async function CheckoutPage({ params, searchParams }: { params: Promise<{ reference: string }>; searchParams: Promise<{ trxref?: string }> }) {
  const { reference } = await params;
  const { trxref } = await searchParams;
  const view = await checkoutPageView(await getDb(), reference, new Date());
  if (!view) notFound();
  // Back from Paystack (it adds trxref and reference): the outcome is known, so the merchant's page takes over.
  if (trxref !== undefined && view.status !== 'PENDING' && view.returnTo) redirect(view.returnTo);
  return (
    <main className="flex min-h-screen items-start justify-center px-4 py-10 sm:items-center">
      <div className="w-full max-w-md">
        <p className="mb-6 text-center text-lg font-semibold text-emerald-800">Escrow Desk</p>
        <Card>
          <p className="text-sm text-slate-600">Pay {view.merchant}</p>
          <h1 className="mt-1 text-3xl font-semibold tabular-nums text-slate-900">{view.amount}</h1>
          <dl className="mt-4 space-y-2 text-sm">
            <div>
              <dt className="text-slate-600">Merchant</dt>
              <dd className="font-medium break-words">{view.merchant}</dd>
            </div>
            <div>
              <dt className="text-slate-600">For</dt>
              <dd className="font-medium break-words">{view.paysFor}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Reference</dt>
              <dd className="font-mono text-xs break-all">{view.reference}</dd>
            </div>
          </dl>
          {view.payable ? (
            <>
              <p className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950">Sandbox: no card is charged. Pay or Decline to see what your buyer would see.</p>
              <CheckoutAnswer reference={view.reference} />
            </>
          ) : (
            <div role="status" className="mt-5 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-900">
              <p className="font-medium">{view.status === 'PENDING' ? 'This payment is waiting for the payment provider.' : OUTCOME[view.status]}</p>
              {view.status === 'PAID' && view.applied === false && view.notAppliedReason ? <p className="mt-1">{view.notAppliedReason}</p> : null}
              {view.status === 'FAILED' && view.failureReason ? <p className="mt-1">{view.failureReason}</p> : null}
              {view.returnTo && view.status !== 'PENDING' ? (
                <p className="mt-2">
                  <a className="font-medium text-emerald-800 underline" href={view.returnTo}>
                    Back to {view.merchant}
                  </a>
                </p>
              ) : null}
            </div>
          )}
        </Card>
      </div>
    </main>
  );
}
