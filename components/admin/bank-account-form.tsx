'use client';

import { useEffect, useState } from 'react';
import { lookupAccountName, saveBankAccount } from '@/app/(dashboard)/admin/bank-accounts/actions';
import type { Bank } from '@/lib/contracts/dashboard';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { SelectField, TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { Spinner } from '../ui/spinner';
import { useToast } from '../ui/toast';

type Lookup = { for: string; ok: true; name: string; bank: string } | { for: string; ok: false; message: string };

/** Pick the bank, type the NUBAN: the account name is looked up live, and saving waits for it. */
export function BankAccountForm({ banks, customers, defaultUserId, onSaved }: { banks: Bank[]; customers: Array<{ id: string; name: string }>; defaultUserId?: string; onSaved: () => void }) {
  const toast = useToast();
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  // Bank and number are followed as they are typed, for the live name lookup.
  const [bankCode, setBankCode] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const [lookup, setLookup] = useState<Lookup | null>(null);
  const lookupKey = `${bankCode}:${accountNumber}`;
  const complete = Boolean(bankCode) && /^\d{10}$/.test(accountNumber);

  useEffect(() => {
    if (!complete) return;
    let live = true;
    const timer = setTimeout(async () => {
      const result = await lookupAccountName({ bank_code: bankCode, account_number: accountNumber });
      if (!live) return;
      setLookup(
        result.ok && result.data
          ? { for: lookupKey, ok: true, name: result.data.account_name, bank: result.data.bank_name }
          : { for: lookupKey, ok: false, message: result.message },
      );
    }, 350);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [complete, bankCode, accountNumber, lookupKey]);

  // The answer counts only for the bank and number it was asked about.
  const current = complete && lookup?.for === lookupKey ? lookup : null;
  const looking = complete && !current;
  const confirmed = current?.ok === true;
  const bound = form.bind(async (data) => {
    if (!confirmed) return;
    const result = await saveBankAccount({ user_id: textOf(data, 'user_id'), bank_code: bankCode, account_number: accountNumber, idempotency_key: key });
    toast.result(result);
    form.report(result);
    if (result.ok) {
      // The customer stays chosen, for their next account.
      setBankCode('');
      setAccountNumber('');
      setLookup(null);
      renewKey();
      onSaved();
    }
  });

  return (
    <form {...bound} className="space-y-3" aria-label="Add a bank account">
      <SelectField label="Customer" name="user_id" required defaultValue={defaultUserId ?? ''} error={form.errorOf('user_id')}>
        <option value="">Choose a customer…</option>
        {customers.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <SelectField label="Bank" name="bank_code" required value={bankCode} onChange={(e) => setBankCode(e.target.value)} error={form.errorOf('bank_code')}>
        <option value="">Choose a bank…</option>
        {banks.map((b) => (
          <option key={b.code} value={b.code}>
            {b.name}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Account number (NUBAN)"
        name="account_number"
        required
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
        value={accountNumber}
        onChange={(e) => setAccountNumber(e.target.value)}
        error={form.errorOf('account_number')}
      />
      <div aria-live="polite" className="min-h-6 text-sm" data-testid="account-name-lookup">
        {looking ? <Spinner label="Looking up the account name…" /> : null}
        {current?.ok ? (
          <p className="rounded-md bg-emerald-50 px-3 py-2 text-emerald-900">
            Account name: <strong data-testid="account-name">{current.name}</strong> ({current.bank})
          </p>
        ) : null}
        {current && !current.ok ? <p className="text-rose-700">{current.message}</p> : null}
      </div>
      <Button type="submit" disabled={!confirmed} loading={form.busy}>
        Save bank account
      </Button>
    </form>
  );
}
