import type { MilestoneLog } from '@/lib/contracts/dashboard';
import { Badge } from '../ui/badge';
import { mediationWords } from './mediation-words';
import { dateTime } from './format';

const ACTOR: Record<string, string> = { buyer: 'Buyer', seller: 'Seller', client: 'Marketplace', system: 'System', dispute_team: 'Dispute team' };

/** `viewer`: the party reading, whose own lines say "You". */
export function MilestoneLogList({ logs, viewer }: { logs: MilestoneLog[]; viewer?: 'buyer' | 'seller' | 'admin' }) {
  if (logs.length === 0) return <p className="text-sm text-slate-600">Nothing has happened on this milestone yet.</p>;
  return (
    <ol className="space-y-1.5 text-sm">
      {logs.map((log) => (
        <li key={log.id} className="grid gap-x-3 sm:grid-cols-[9.5rem_6.5rem_1fr]" data-automatic={log.is_automatic || undefined}>
          <time dateTime={log.created_at} className="text-slate-500">
            {dateTime(log.created_at)}
          </time>
          <span className="font-medium text-slate-700">{log.actor === viewer ? 'You' : (ACTOR[log.actor] ?? log.actor)}</span>
          <span className="text-slate-800">
            {mediationWords(log.log_message, viewer)}
            {log.is_automatic ? (
              <Badge tone="blue" className="ml-2 align-middle">
                automatic
              </Badge>
            ) : null}
          </span>
        </li>
      ))}
    </ol>
  );
}
