import Link from 'next/link';

export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold">Escrow Desk</h1>
      <p className="mt-3 text-slate-600">
        Hold your customers&apos; money in escrow per milestone: sellers deliver with proof, buyers inspect, and
        disputes are mediated before any money moves.
      </p>
      <p className="mt-6">
        <Link className="rounded bg-emerald-700 px-4 py-2 font-medium text-white hover:bg-emerald-800" href="/login">
          Sign in to the dashboard
        </Link>
      </p>
      <ul className="mt-8 space-y-2">
        <li>
          <Link className="text-emerald-700 underline" href="/docs">
            API reference
          </Link>{' '}
          — every <code>/v1</code> operation, generated from the same schemas the API validates with.
        </li>
        <li>
          <a className="text-emerald-700 underline" href="/v1/openapi.json">
            OpenAPI 3.1 document
          </a>
        </li>
      </ul>
    </main>
  );
}
