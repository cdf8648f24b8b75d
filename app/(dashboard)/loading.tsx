import { LoadingState } from '@/components/ui/states';

export default function DashboardLoading() {
  return <LoadingState label="Loading…" />;
}
