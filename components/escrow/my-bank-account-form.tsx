'use client';

import { useState } from 'react';
import { lookupMyAccountName, saveMyBankAccount } from '@/app/(dashboard)/wallet/actions';
import type { Bank } from '@/lib/contracts/dashboard';
import type { PersonName } from '@/lib/contracts/dashboard-payouts';
import { useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { SelectField, TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';
import { NameCheck, nameVerdict, useAccountLookup } from './name-check';

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
      <SelectField
        label="Bank"
        name="bank_code"
        required
        value={lookup.bankCode}
        onChange={(e) => {
          lookup.setBankCode(e.target.value);
          setAccepted(false);
        }}
        error={form.errorOf('bank_code')}
      >
        <option value="">Choose a bank…</option>
        {banks.map((b) => (
          <option key={b.code} value={b.code}>
            {b.name}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Account number (10 digits)"
        name="account_number"
        required
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
        value={lookup.accountNumber}
        onChange={(e) => {
          lookup.setAccountNumber(e.target.value);
          setAccepted(false);
        }}
        error={form.errorOf('account_number')}
      />
      <NameCheck lookup={lookup} person={me} whose={{ yours: true, name: `${me.firstName} ${me.lastName}` }} accepted={accepted} onAccept={setAccepted} error={form.errorOf('accept_name_mismatch')} />
      <Button type="submit" disabled={!ready} loading={form.busy}>
        Save bank account
      </Button>
    </form>
  );
}
