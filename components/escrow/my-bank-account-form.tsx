'use client';

import { useState } from 'react';
import { lookupMyAccountName, saveMyBankAccount } from '@/app/(dashboard)/wallet/actions';
import type { Bank } from '@/lib/contracts/dashboard';
import type { PersonName } from '@/lib/contracts/dashboard-payouts';
import { useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { useIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';
import { BankAccountFields, NameCheck, nameVerdict, useAccountLookup } from './name-check';

/** A customer saves an account of its own: the bank's name for it is shown beside the customer's before saving. */
export function MyBankAccountForm({ banks, me, onSaved }: { banks: Bank[]; me: PersonName; onSaved: () => void }) {
  const toast = useToast();
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const lookup = useAccountLookup(lookupMyAccountName);
  const [accepted, setAccepted] = useState(false);
  const verdict = nameVerdict(lookup.current, me);
  const ready = lookup.current?.ok === true && (verdict !== 'differs' || accepted);

  const bound = form.bind(async () => {
    if (!ready) return;
    const result = await saveMyBankAccount({
      bank_code: lookup.bankCode,
      account_number: lookup.accountNumber,
      accept_name_mismatch: verdict === 'differs' && accepted,
      idempotency_key: key,
    });
    toast.result(result);
    form.report(result);
    if (result.ok) {
      lookup.reset();
      setAccepted(false);
      renewKey();
      onSaved();
    }
  });

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
