import Link from 'next/link';

export default function DashboardNotFound() {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-slate-600">There is nothing here for you: the link is wrong, or it belongs to someone else.</p>
      <Link href="/dashboard" className="mt-6 inline-block text-emerald-800 underline">
        Back to the dashboard
      </Link>
    </div>
  );
}
