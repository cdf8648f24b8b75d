import type { SavedBankAccount } from '@/lib/contracts/dashboard-payouts';
import { Badge } from '../ui/badge';

/** A saved account whose holder at the bank is not named as the customer (name_matches false). */
export function NameDiffers() {
  return (
    <Badge tone="amber">
      <span data-testid="name-differs" title="The bank's name for this account is not the customer's name">
        Name differs
      </span>
    </Badge>
  );
}

/** A customer's saved accounts, newest first: where its withdrawals can go. */
export function SavedAccountsList({ accounts }: { accounts: SavedBankAccount[] }) {
  if (accounts.length === 0) return <p className="text-sm text-slate-600">No bank account saved yet.</p>;
  return (
    <ul className="space-y-3 text-sm" aria-label="Saved bank accounts">
      {accounts.map((a) => (
        <li key={a.id} data-testid="saved-account">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-medium break-words">{a.account_name}</span>
            {a.name_matches === false ? <NameDiffers /> : null}
          </p>
          <p className="text-slate-600">
            {a.bank_name} · <span className="font-mono">{a.account_number}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}
