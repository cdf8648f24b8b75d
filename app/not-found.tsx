import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Not found' };

/** Any address outside the dashboard's own pages: the same words, with the page's landmarks. */
export default function NotFound() {
  return (
    <>
      <header className="border-b bg-white">
        <div className="mx-auto max-w-6xl px-4 py-3 sm:px-6">
          {/* A plain link on purpose: next/link here would put it in the chunk every route loads, and leaving an unknown address is a full load anyway. */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
          <a href="/" className="font-semibold text-emerald-800">
            Escrow Desk
          </a>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-lg px-4 py-16 text-center">
        <h1 className="text-2xl font-semibold">Not found</h1>
        <p className="mt-2 text-slate-600">There is no page at this address. Check the link, or start again from the dashboard.</p>
        <a href="/dashboard" className="mt-6 inline-block text-emerald-800 underline">
          Go to the dashboard
        </a>
      </main>
    </>
  );
}
