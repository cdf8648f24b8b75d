'use client';

import { ErrorState } from '@/components/ui/states';

export default function DashboardError({ reset }: { error: Error; reset: () => void }) {
  return <ErrorState title="This page could not be shown" message="Something went wrong while loading it. Try again, or come back in a moment." retry={reset} />;
}
