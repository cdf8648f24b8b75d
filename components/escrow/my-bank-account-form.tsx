'use client';

import { lookupMyAccountName, saveMyBankAccount } from '@/lib/actions/wallet';
import type { Bank } from '@/lib/contracts/dashboard';
import type { PersonName } from '@/lib/contracts/dashboard-payouts';
import { Button } from '../ui/button';
import { BankAccountFields, NameCheck, useSaveAccountForm } from './name-check';

/** A customer saves an account of its own: the bank's name for it is shown beside the customer's before saving. */
export function MyBankAccountForm({ banks, me, onSaved }: { banks: Bank[]; me: PersonName; onSaved: () => void }) {
  const { form, bound, lookup, accepted, setAccepted, ready } = useSaveAccountForm({ lookup: lookupMyAccountName, person: me, save: saveMyBankAccount, onSaved });

  return (
    <form {...bound} className="space-y-3" aria-label="Add a bank account">
      <BankAccountFields banks={banks} lookup={lookup} numberLabel="Account number (10 digits)" onEdit={() => setAccepted(false)} errorOf={form.errorOf} />
      <NameCheck lookup={lookup} person={me} whose={{ yours: true, name: `${me.firstName} ${me.lastName}` }} accepted={accepted} onAccept={setAccepted} error={form.errorOf('accept_name_mismatch')} />
      <Button type="submit" disabled={!ready} loading={form.busy}>
        Save bank account
      </Button>
    </form>
  );
}
